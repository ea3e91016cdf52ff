import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafka, readCloudEventAttributes, TOPICS } from '@ipdata/common';
import { stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
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

    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'dataset-test-reader' }, logger);
    const consumer = kafka.consumer({ groupId: uniqueName('dataset-test') });
    const received: Array<{ key: string; event: DatasetPublished; headers: Record<string, string> }> = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: TOPICS.datasetPublished.name, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]));
          received.push({ key: String(message.key), event: DatasetPublished.decode(message.value as Buffer), headers });
        },
      });
      const mine = await waitFor(() => received.find((entry) => entry.event.meta?.id === eventId), {
        timeoutMs: 30_000,
        what: 'the event',
      });
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
      await consumer.disconnect();
    }
  });
});
