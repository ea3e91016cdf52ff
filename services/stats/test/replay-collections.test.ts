/**
 * The collections side of a replay on the real database (FerretDB locally): a fresh generation
 * with its indexes, the copy of the days before a rebuild, the copy of carries into open hours
 * at the swap, and dropping a failed generation (also one that does not exist).
 */
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoUrlWithDatabase, stackAddresses, uniqueName } from '@ipdata/common/testing';
import { carriedKey } from '../src/closing/carry.js';
import { collectionsFor } from '../src/counters/rollup-generation.js';
import { MongoRollupCollectionsAdmin } from '../src/adapters/mongo/rollup-collections.admin.js';

describe('MongoRollupCollectionsAdmin', () => {
  let connection: Connection;
  let admin: MongoRollupCollectionsAdmin;
  const live = collectionsFor('');
  const fresh = collectionsFor('_gtest1');
  const openFrom = new Date('2026-03-10T06:00:00.000Z');
  const hourDoc = (p: number, hour: string, c: Record<string, number>) => ({
    _id: `${p}|acct|key|1|h|${new Date(hour).toISOString()}`,
    p,
    wm: 10,
    accountId: 'acct',
    apiKeyId: 'key',
    channel: 1,
    g: 'h',
    periodStart: new Date(hour),
    c,
  });

  beforeAll(async () => {
    const url = mongoUrlWithDatabase(stackAddresses().mongoUrl, uniqueName('stats_replay_admin').replace(/-/g, '_'));
    connection = await mongoose.createConnection(url).asPromise();
    admin = new MongoRollupCollectionsAdmin(connection, {
      usage: [
        { accountId: 1, g: 1, periodStart: 1 },
        { g: 1, periodStart: 1 },
      ],
      trends: [{ kind: 1, g: 1, periodStart: 1 }],
    });
    await connection
      .collection(live.usage)
      .insertMany([
        hourDoc(0, '2026-03-09T22:00:00Z', { lookups: 4, requests: 2 }),
        hourDoc(1, '2026-03-10T03:00:00Z', { lookups: 5, requests: 5, [carriedKey(openFrom)]: 3 }),
        hourDoc(1, '2026-03-10T02:00:00Z', { lookups: 1, requests: 1, [carriedKey(new Date('2026-03-10T05:00:00.000Z'))]: 1 }),
      ] as never[]);
    await connection.collection(live.trends).insertMany([
      {
        _id: '0|country|1|d|2026-03-09T00:00:00.000Z',
        p: 0,
        wm: 1,
        kind: 'country',
        g: 'd',
        periodStart: new Date('2026-03-09T00:00:00Z'),
        c: { 'r:US': 2 },
      },
      {
        _id: '0|country|1|d|2026-03-10T00:00:00.000Z',
        p: 0,
        wm: 1,
        kind: 'country',
        g: 'd',
        periodStart: new Date('2026-03-10T00:00:00Z'),
        c: { 'r:US': 9 },
      },
    ] as never[]);
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  it('prepares a fresh generation, copies earlier days and the carries into open hours, drops it again', async () => {
    await admin.drop(collectionsFor('_gnever')); // a generation that does not exist: no error
    await admin.prepare(fresh);
    const indexes = await connection.collection(fresh.usage).indexes();
    expect(indexes.map((index) => index.key)).toEqual(
      expect.arrayContaining([
        { accountId: 1, g: 1, periodStart: 1 },
        { g: 1, periodStart: 1 },
      ]),
    );

    const copied = await admin.copyBefore(live, fresh, new Date('2026-03-10T00:00:00Z'));
    expect(copied).toBe(2);
    expect(await connection.collection(fresh.trends).countDocuments({})).toBe(1);

    // The replay rebuilt hour 03:00 without its carry; the swap brings back the carry into the open hour (06:00) only.
    await connection.collection(fresh.usage).insertOne(hourDoc(1, '2026-03-10T03:00:00Z', { lookups: 5, requests: 5 }) as never);
    const carries = await admin.copyOpenCarries(live.usage, fresh.usage, openFrom);
    expect(carries).toBe(1);
    const doc = await connection.collection(fresh.usage).findOne({ _id: '1|acct|key|1|h|2026-03-10T03:00:00.000Z' } as never);
    expect(doc?.['c']).toEqual({ lookups: 5, requests: 5, [carriedKey(openFrom)]: 3 });
    expect(await connection.collection(fresh.usage).countDocuments({ periodStart: new Date('2026-03-10T02:00:00Z') })).toBe(0);

    await admin.drop(fresh);
    const names = (await connection.db!.listCollections().toArray()).map((entry) => entry.name);
    expect(names).not.toContain(fresh.usage);
    expect(names).not.toContain(fresh.trends);
    expect(names).toContain(live.usage);
  });
});
