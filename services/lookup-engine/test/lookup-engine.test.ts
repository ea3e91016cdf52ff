import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { DATASET_FILE } from '@ipdata/dataset/format';
import { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { LookupServiceClient, type BatchLookupResponse } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  NotFoundError,
  EventProducer,
  TOPICS,
  callUnary,
  createGrpcClient,
  createKafka,
} from '@ipdata/common';
import { ManualClock, stackAddresses, testGrpcEnv, testGrpcTls, uniqueName, waitFor } from '@ipdata/common/testing';
import { buildLookupEngine, type LookupEngine } from '../src/app.js';
import { compactBatchItems, type CompactBatch } from '../src/client/compact-batch-decoder.js';
import { createLookupClient } from '../src/client/lookup-client.js';
import { BatchLookupStream } from '../src/client/lookup-stream.js';
import { loadLookupEngineConfig } from '../src/config.js';
import { syntheticDataset } from './fixtures/synthetic-dataset.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

function writeVersion(root: string, version: string, bytes: Buffer): string {
  mkdirSync(join(root, version), { recursive: true });
  writeFileSync(join(root, version, DATASET_FILE), bytes);
  return join(root, version);
}

async function readyz(engine: LookupEngine): Promise<number> {
  return (await fetch(`http://127.0.0.1:${engine.health.boundPort}/readyz`)).status;
}

describe('lookup engine over gRPC', () => {
  const root = mkdtempSync(join(tmpdir(), 'datasets-'));
  let engine: LookupEngine;
  let client: LookupServiceClient;
  // Sydney is UTC+11 in November (daylight saving time).
  const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
  const lookup = (ip: string) => callUnary(client.lookup.bind(client), { ip }, new Metadata());
  const batch = (ips: string[]) => callUnary(client.batchLookup.bind(client), { ips });

  beforeAll(async () => {
    const stack = stackAddresses();
    const config = loadLookupEngineConfig({
      GRPC_PORT: '0',
      HEALTH_PORT: '0',
      DATASETS_DIR: root,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      INSTANCE_ID: uniqueName('engine'),
      // Short, so the stream test below sees the engine end streams and the client open new ones.
      LOOKUP_STREAM_MAX_AGE_MS: '300',
      ...testGrpcEnv('lookup-engine'),
    });
    engine = buildLookupEngine(config, logger, clock);
    await engine.lifecycle.start();
    client = createGrpcClient(LookupServiceClient, {
      address: engine.grpc.boundAddress,
      tls: testGrpcTls('bff-en'),
      defaultDeadlineMs: 5_000,
      maxReceiveMessageBytes: 8 * 1024 * 1024,
    });
  });

  afterAll(async () => {
    client.close();
    await engine.lifecycle.shutdown();
  });

  it('is not ready without a dataset and becomes ready when one is published', async () => {
    expect(await readyz(engine)).toBe(503);
    await expect(lookup('8.8.8.8')).rejects.toThrow('no dataset is loaded yet');

    const location = writeVersion(root, '2026.11.01-aaaa', syntheticDataset('2026.11.01-aaaa'));
    const kafka = createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: 'engine-test' }, logger);
    const producer = EventProducer.fromConfig({ kafka, source: 'dataset' }, logger);
    await producer.start();
    // An event naming a folder outside DATASETS_DIR is not trusted and changes nothing.
    const outside = mkdtempSync(join(tmpdir(), 'elsewhere-'));
    writeVersion(outside, '2026.11.01-ffff', syntheticDataset('2026.11.01-ffff', ' elsewhere'));
    await producer.send(
      TOPICS.datasetPublished,
      DatasetPublished.fromPartial({
        version: '2026.11.01-ffff',
        location: join(outside, '2026.11.01-ffff'),
        builtAt: new Date('2026-11-02T00:00:00Z'),
      }),
      { key: '2026.11.01-ffff' },
    );
    await producer.send(
      TOPICS.datasetPublished,
      DatasetPublished.fromPartial({
        version: '2026.11.01-aaaa',
        location,
        builtAt: new Date('2026-11-01T00:00:00Z'),
        ipv4Ranges: 7,
      }),
      { key: '2026.11.01-aaaa' },
    );
    await producer.shutdown();
    await waitFor(async () => (await readyz(engine)) === 200, { timeoutMs: 30_000, what: 'ready after dataset.published' });
    expect((await callUnary(client.getDatasetInfo.bind(client), {})).version).toBe('2026.11.01-aaaa');
  });

  it("reports the zone's current time from the injected clock", async () => {
    expect((await lookup('1.0.0.1')).info?.timeZone).toMatchObject({
      name: 'Australia/Sydney',
      offset: '+11:00',
      currentTime: '2026-11-22T23:00:00+11:00',
    });
    clock.advance(90 * 60_000);
    expect((await batch(['1.0.0.1'])).items[0]?.info?.timeZone?.currentTime).toBe('2026-11-23T00:30:00+11:00');
  });

  it('answers Lookup, BatchLookup, LookupAsn with spec errors', async () => {
    const answer = await lookup('8.8.8.8');
    expect(answer.info).toMatchObject({
      ip: '8.8.8.8',
      countryCode: 'US',
      cityName: 'Mountain View',
      startIp: '8.8.8.0',
      endIp: '8.8.8.255',
    });
    await expect(lookup('8.8.8')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(lookup('8.8.8')).rejects.toThrow('invalid IP address: 8.8.8');

    const result = await batch(['1.0.0.1', 'nope', '::ffff:114.114.114.114']);
    expect(result.items.map((item) => item.info?.countryCode ?? item.error)).toEqual(['AU', 'invalid IP address: nope', 'CN']);
    await expect(batch(Array.from({ length: 1001 }, () => '1.1.1.1'))).rejects.toThrow(
      'at most 1000 addresses per batch, got 1001',
    );

    const asn = await callUnary(client.lookupAsn.bind(client), { asn: 15169, page: 0, pageSize: 1 });
    expect(asn).toMatchObject({
      asn: 15169,
      name: 'Google LLC',
      ipv4PrefixCount: 1,
      ipv6PrefixCount: 1,
      totalPrefixes: 2,
      prefixes: ['8.8.8.0/24'],
    });
    const second = await callUnary(client.lookupAsn.bind(client), { asn: 15169, page: 1, pageSize: 1 });
    expect(second.prefixes).toEqual(['2001:4860::/32']);
    await expect(callUnary(client.lookupAsn.bind(client), { asn: 64512, page: 0, pageSize: 10 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('answers the BFF client (BatchLookupCompact) with what BatchLookup gives, and the same errors', async () => {
    const fast = createLookupClient({ address: engine.grpc.boundAddress, tls: testGrpcTls('bff-cn'), defaultDeadlineMs: 5_000 });
    const queries = ['1.0.0.1', ' 8.8.8.8 ', 'nope', '::ffff:114.114.114.114', '2001:4860::1', '10.0.0.1', '9.9.9.9', '1.0.0.2'];
    // The time zone's current time is computed per call; calls a second apart differ there only.
    const withoutClock = (response: BatchLookupResponse) =>
      response.items.map((item) => ({ ...item, info: item.info && { ...item.info, timeZone: item.info.timeZone?.name } }));
    const [compact, reference] = await Promise.all([callUnary(fast.batchLookup.bind(fast), { ips: queries }), batch(queries)]);
    expect(withoutClock(compact)).toEqual(withoutClock(reference));
    expect(compact.items[1]?.info).toMatchObject({ ip: '8.8.8.8', cityName: 'Mountain View', networks: ['8.8.8.0/24'] });
    expect(compact.items[2]?.error).toBe('invalid IP address: nope');
    await expect(callUnary(fast.batchLookup.bind(fast), { ips: Array.from({ length: 1001 }, () => '1.1.1.1') })).rejects.toThrow(
      'at most 1000 addresses per batch, got 1001',
    );
    fast.close();
  });

  it('answers batches on BatchLookupCompactStream as BatchLookupCompact does, in order, across streams the engine ends', async () => {
    const fast = createLookupClient({ address: engine.grpc.boundAddress, tls: testGrpcTls('bff-en'), defaultDeadlineMs: 5_000 });
    const stream = BatchLookupStream.decoded(fast);
    const pool = ['1.0.0.1', '8.8.8.8', 'nope', '2001:4860::1', '10.0.0.1', '9.9.9.9', '1.0.0.2', '::ffff:114.114.114.114'];
    const queries = (n: number) => Array.from({ length: 1 + (n % 7) }, (_, i) => pool[(n + i) % pool.length] as string);
    const withoutClock = (response: BatchLookupResponse) =>
      response.items.map((item) => ({ ...item, info: item.info && { ...item.info, timeZone: item.info.timeZone?.name } }));
    try {
      // Waves of 20 concurrent batches until they have crossed three stream ends: the engine ends
      // each stream after 300 ms, so some batches are in flight when it does and go again on the
      // next stream. Counted in streams, not in time: a slow machine runs fewer waves per stream.
      let wave = 0;
      while (stream.opened < 4 || wave < 6) {
        const asked = Array.from({ length: 20 }, (_, i) => queries(wave * 20 + i));
        const [streamed, unary] = await Promise.all([
          Promise.all(asked.map((ips) => stream.batchLookup(ips))),
          Promise.all(asked.map((ips) => callUnary(fast.batchLookup.bind(fast), { ips }))),
        ]);
        expect(streamed.map(withoutClock)).toEqual(unary.map(withoutClock));
        wave++;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // A batch the engine refuses fails with the engine's error; the ones beside it are answered.
      const tooLarge = stream.batchLookup(Array.from({ length: 1001 }, () => '1.1.1.1'));
      const beside = stream.batchLookup(['8.8.8.8']);
      await expect(tooLarge).rejects.toThrow('at most 1000 addresses per batch, got 1001');
      expect((await beside).items[0]?.info?.ip).toBe('8.8.8.8');
    } finally {
      await stream.shutdown();
      fast.close();
    }
  });

  it('answers batches on a compact stream with the parts and answers of BatchLookupCompact', async () => {
    const fast = createLookupClient({ address: engine.grpc.boundAddress, tls: testGrpcTls('bff-en'), defaultDeadlineMs: 5_000 });
    const stream = BatchLookupStream.compact(fast, 'lookup-stream-batches');
    const ips = Array.from(
      { length: 1_000 },
      (_, i) => ['1.0.0.1', '8.8.8.8', 'nope', '2001:4860::1', '10.0.0.1'][i % 5] as string,
    );
    const withoutClock = (batch: CompactBatch) =>
      compactBatchItems(batch).map((item) => ({
        ...item,
        info: item.info && { ...item.info, timeZone: item.info.timeZone?.name },
      }));
    try {
      const [streamed, unary] = await Promise.all([
        Promise.all([stream.batchLookup(ips), stream.batchLookup(ips.slice(0, 3))]),
        Promise.all([
          callUnary(fast.batchLookupParts.bind(fast), { ips }),
          callUnary(fast.batchLookupParts.bind(fast), { ips: ips.slice(0, 3) }),
        ]),
      ]);
      expect(stream.name).toBe('lookup-stream-batches');
      expect(streamed[0]?.length).toBe(1_000);
      expect(streamed[0]?.count('places')).toBe(unary[0]?.count('places'));
      expect(streamed.map(withoutClock)).toEqual(unary.map(withoutClock));
      expect(withoutClock(streamed[1])[1]?.info).toMatchObject({ ip: '8.8.8.8', cityName: 'Mountain View' });
    } finally {
      await stream.shutdown();
      fast.close();
    }
  });

  it('swaps datasets under concurrent load without a failed call, and refuses a broken file', async () => {
    let failures = 0;
    let calls = 0;
    const seen = new Set<string>();
    let running = true;
    const workers = Array.from({ length: 16 }, async () => {
      while (running) {
        try {
          const result = await batch(['8.8.8.8', '1.0.0.1', '2001:4860::1']);
          seen.add(result.items[0]?.info?.cityName ?? '?');
          calls++;
        } catch {
          failures++;
        }
      }
    });
    await waitFor(() => calls > 200, { what: 'load running' });
    writeVersion(root, '2026.11.02-bbbb', syntheticDataset('2026.11.02-bbbb', ' v2'));
    expect(await engine.store.reloadNewest()).toBe(true);
    await waitFor(() => seen.has('Mountain View v2'), { what: 'answers from the new dataset' });

    // A truncated file in a newer folder is refused; the current dataset keeps serving.
    const broken = syntheticDataset('2026.11.03-cccc', ' v3');
    writeVersion(root, '2026.11.03-cccc', broken.subarray(0, broken.length - 10));
    expect(await engine.store.reloadNewest()).toBe(false);
    const before = calls;
    await waitFor(() => calls > before + 200, { what: 'load after refused file' });
    running = false;
    await Promise.all(workers);

    expect(failures).toBe(0);
    expect(seen).toEqual(new Set(['Mountain View', 'Mountain View v2']));
    expect((await callUnary(client.getDatasetInfo.bind(client), {})).version).toBe('2026.11.02-bbbb');
  });
});
