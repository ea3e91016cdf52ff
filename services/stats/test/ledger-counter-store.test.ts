import { MongoConnection } from '@ipdata/common';
import { mongoUrlWithDatabase, stackAddresses, uniqueName } from '@ipdata/common/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { counterKey, type CounterDocDelta } from '../src/counters/counter-delta.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const H0 = new Date('2025-03-01T10:00:00.000Z');
const H1 = new Date('2025-03-01T11:00:00.000Z');

function delta(id: string, periodStart: Date, increments: Array<[number, Record<string, number>]>): CounterDocDelta {
  return {
    id,
    dims: { accountId: 'acct-1', g: 'h', periodStart },
    increments: increments.map(([offset, inc]) => ({ offset, inc })),
  };
}

describe('MongoCounterStore: counter documents with per-document watermarks (FerretDB)', () => {
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_counters').replace(/-/g, '_')) },
    logger,
  );
  let name = uniqueName('counters').replace(/-/g, '_');
  const store = new MongoCounterStore(mongo.connection, () => name, logger);
  const reader = new MongoCounterReader(mongo.connection, () => name);

  beforeAll(async () => {
    await mongo.start();
    await store.createIndexes([
      { accountId: 1, g: 1, periodStart: 1 },
      { g: 1, periodStart: 1 },
    ]);
  });
  afterAll(async () => {
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  });

  it('creates documents, adds increments once per offset whatever the batch boundaries, and reads them back', async () => {
    const endpoint = counterKey('e:', '/v1/ip/{ip}');
    const province = counterKey('r:', '广东省');
    const dotted = counterKey('le:', 'v1.2$x');
    const first = await store.apply(3, [
      delta('3|acct-1|h0', H0, [
        [10, { lookups: 2, [endpoint]: 1, [province]: 1 }],
        [11, { lookups: 1, [dotted]: 1 }],
      ]),
    ]);
    expect(first).toEqual({ written: 1, skippedIncrements: 0 });

    // Re-delivery with other boundaries: 10 and 11 again, plus 12 new.
    const again = await store.apply(3, [
      delta('3|acct-1|h0', H0, [
        [11, { lookups: 1, [dotted]: 1 }],
        [12, { lookups: 5, [endpoint]: 1, [province]: 2 }],
      ]),
      delta('3|acct-1|h1', H1, [[12, { lookups: 7 }]]),
    ]);
    expect(again).toEqual({ written: 2, skippedIncrements: 1 });
    const replayed = await store.apply(3, [delta('3|acct-1|h0', H0, [[10, { lookups: 2 }]])]);
    expect(replayed).toEqual({ written: 0, skippedIncrements: 1 });

    const docs = await reader.find({ equals: { accountId: 'acct-1', g: 'h' }, from: H0, to: new Date(H1.getTime() + 3_600_000) });
    const byId = new Map(docs.map((doc) => [doc.id, doc]));
    expect(byId.get('3|acct-1|h0')).toMatchObject({
      partition: 3,
      periodStart: H0,
      dims: { accountId: 'acct-1', g: 'h' },
      c: { lookups: 8, [endpoint]: 2, [province]: 3, [dotted]: 1 },
    });
    expect(byId.get('3|acct-1|h1')?.c).toEqual({ lookups: 7 });
    // periodStart is a range: `to` is exclusive.
    expect(await reader.find({ equals: { accountId: 'acct-1', g: 'h' }, from: H0, to: H1 })).toHaveLength(1);
  });

  it('a store adds only what is above the watermark another writer (a previous owner of the partition) left', async () => {
    const id = '5|acct-1|h0';
    await store.apply(5, [delta(id, H0, [[1, { lookups: 1 }]])]);
    // Another writer (the partition's previous owner) moved the watermark:
    // offsets 2..3 by a second store, then 2..4 (re-delivered) by the first.
    const other = new MongoCounterStore(mongo.connection, () => name, logger);
    await other.apply(5, [
      delta(id, H0, [
        [2, { lookups: 1 }],
        [3, { lookups: 1 }],
      ]),
    ]);
    await store.apply(5, [
      delta(id, H0, [
        [2, { lookups: 1 }],
        [3, { lookups: 1 }],
        [4, { lookups: 1 }],
      ]),
    ]);
    const [doc] = await reader.find({ equals: { accountId: 'acct-1', g: 'h', p: 5 }, from: H0, to: H1 });
    expect(doc?.c).toEqual({ lookups: 4 });
  });

  it('concurrent applies of the same records to new documents count them once (insert race → retry)', async () => {
    const deltas = [delta('7|acct-1|h0', H0, [[1, { lookups: 3 }]]), delta('7|acct-1|h1', H1, [[2, { lookups: 4 }]])];
    const results = await Promise.all([store.apply(7, deltas), store.apply(7, deltas), store.apply(7, deltas)]);
    expect(results.reduce((sum, r) => sum + r.written, 0)).toBe(2);
    const docs = await reader.find({ equals: { accountId: 'acct-1', p: 7 }, from: H0, to: new Date(H1.getTime() + 1) });
    expect(docs.map((d) => d.c['lookups']).sort()).toEqual([3, 4]);
  });

  it('measures a round of 500 new documents and then 500 updates (FerretDB: each update scans the collection)', async () => {
    name = uniqueName('counters_speed').replace(/-/g, '_');
    const deltas = Array.from({ length: 500 }, (_, i) =>
      delta(`0|acct-${i % 100}|${i}`, H0, [
        [i, { lookups: 1, requests: 1, [counterKey('e:', '/v1/geolocation')]: 1, 's:200': 1 }],
      ]),
    );
    let started = performance.now();
    await store.apply(0, deltas);
    const insertMs = performance.now() - started;
    const updates = deltas.map((d, i) => ({ ...d, increments: [{ offset: 5000 + i, inc: { lookups: 2, requests: 1 } }] }));
    started = performance.now();
    await store.apply(0, updates);
    const updateMs = performance.now() - started;
    logger.info({ insertMs, updateMs }, 'bulk write of 500 counter documents');
    console.warn(`counter store, 500 docs: insert ${insertMs.toFixed(0)} ms, update ${updateMs.toFixed(0)} ms`);
    const docs = await reader.find({ equals: { g: 'h' }, from: H0, to: H1 });
    expect(docs).toHaveLength(500);
    expect(docs.every((doc) => doc.c['lookups'] === 3 && doc.c['requests'] === 2)).toBe(true);
  });
});
