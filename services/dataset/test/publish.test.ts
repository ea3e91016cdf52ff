import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { readCloudEventAttributes, TOPICS } from '@ipdata/common';
import { stackAddresses, TopicRecorder } from '@ipdata/common/testing';
import { datasetPublishedEvent, publishDataset } from '../src/adapters/kafka/dataset-publisher.js';
import { buildDataset } from '../src/build/build-dataset.js';
import { silentReporter } from '../src/build/progress.js';
import { syntheticInputs } from '../src/testing/synthetic-build.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

describe('--publish: dataset.published.v1', () => {
  const { folder, inputs, sources } = syntheticInputs();
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('announces the built version with its files and range counts', async () => {
    const result = buildDataset({
      inputs,
      sources,
      datasetsDir: join(folder, 'datasets'),
      force: false,
      sourceDateEpoch: null,
      reporter: silentReporter,
    });
    const eventId = await publishDataset(
      { brokers: stack.kafkaBrokers, clientId: 'dataset-test' },
      logger,
      datasetPublishedEvent(result),
    );

    const recorder = await TopicRecorder.start(TOPICS.datasetPublished);
    try {
      const mine = await recorder.waitForRecord((r) => r.event.meta?.id === eventId, { what: 'the event' });
      expect(mine.key).toBe(result.version);
      expect(readCloudEventAttributes(mine.headers)).toMatchObject({
        id: eventId,
        type: 'ipdata.events.v1.DatasetPublished',
        source: 'dataset',
      });
      expect(mine.event.version).toBe(result.version);
      expect(mine.event.location).toBe(result.folder);
      expect(mine.event.builtAt?.toISOString()).toBe('2026-09-16T00:00:00.000Z');
      expect(mine.event.ipv4Ranges).toBe(result.manifest.counts.ipv4Ranges);
      expect(mine.event.ipv6Ranges).toBe(result.manifest.counts.ipv6Ranges);
      const names = mine.event.files.map((file) => file.name);
      expect(names).toContain('ipdata.ipdat');
      expect(names).toContain('geolocation.ndjson');
      expect(names).toContain('manifest.json');
      const binary = mine.event.files.find((file) => file.name === 'ipdata.ipdat');
      expect(binary).toEqual({
        name: 'ipdata.ipdat',
        sizeBytes: result.manifest.files.find((f) => f.name === 'ipdata.ipdat')?.size,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      });
    } finally {
      await recorder.stop();
    }
  });
});
