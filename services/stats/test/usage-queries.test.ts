import { randomUUID } from 'node:crypto';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { GetMonthUsageRequest, GetUsageRequest } from '@ipdata/proto/stats/v1/stats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, MongoConnection } from '@ipdata/common';
import { ManualClock, mongoUrlWithDatabase, stackAddresses, uniqueName } from '@ipdata/common/testing';
import { getMonthUsage, getUsage } from '../src/adapters/grpc/usage.grpc.js';
import { MongoAccountPlans } from '../src/adapters/mongo/account-plans.store.js';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import type { CountedEvent } from '../src/ledger/ledger-ports.js';
import { usageFold } from '../src/ledger/usage-fold.js';
import { UsageQueries } from '../src/usage/usage.queries.js';

/**
 * GetUsage and GetMonthUsage over usage_rollups on FerretDB: events of one account spread over
 * three source partitions and two keys (plus face B's web tool, plus another account), folded and
 * written as the ledger does, then read back through the gRPC mapping functions.
 */

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const NOW = new Date('2025-06-20T15:30:00.000Z');
const H = (iso: string) => new Date(iso);

describe('usage queries: sums over partitions and keys, empty periods, the month against the plan (FerretDB)', () => {
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_usage_q').replace(/-/g, '_')) },
    logger,
  );
  const account = randomUUID();
  const other = randomUUID();
  const planned = randomUUID();
  let queries: UsageQueries;
  let plans: MongoAccountPlans;

  beforeAll(async () => {
    await mongo.start();
    const store = new MongoCounterStore(mongo.connection, () => 'usage_rollups', logger);
    plans = new MongoAccountPlans(mongo.connection);
    queries = new UsageQueries({
      reader: new MongoCounterReader(mongo.connection, () => 'usage_rollups'),
      plans,
      clock: new ManualClock(NOW),
    });

    let offset = 0;
    const byPartition = new Map<number, CountedEvent[]>();
    const add = (
      partition: number,
      accountId: string,
      apiKeyId: string,
      time: Date,
      count: number,
      endpoint: string,
      channel = UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    ) => {
      const event = UsageEvent.fromPartial({
        accountId,
        apiKeyId,
        channel,
        endpoint,
        count,
        httpStatus: count > 10 ? 207 : 200,
        meta: { id: `e${offset}`, time },
      });
      const list = byPartition.get(partition) ?? [];
      list.push({ event, id: `e${offset}`, time, partition, offset: offset++ });
      byPartition.set(partition, list);
    };
    // The account: key-a on partitions 0 and 1, key-b on partition 2, its web lookups on partition 1.
    add(0, account, 'key-a', H('2025-06-20T10:05:00Z'), 1, '/v1/geolocation');
    add(1, account, 'key-a', H('2025-06-20T10:45:00Z'), 2, '/v1/geolocation');
    add(2, account, 'key-b', H('2025-06-20T10:59:59Z'), 20, '/v1/batch');
    add(0, account, 'key-a', H('2025-06-20T12:00:00Z'), 4, '/v1/asn');
    add(1, account, '', H('2025-06-20T12:30:00Z'), 1, 'web_lookup', UsageChannel.USAGE_CHANNEL_WEB_EN);
    add(2, account, 'key-b', H('2025-06-01T00:00:00Z'), 8, '/v1/asn');
    // Last month: not in this month's quota.
    add(0, account, 'key-a', H('2025-05-31T23:59:59Z'), 100, '/v1/asn');
    // Another account on the same partitions.
    add(1, other, 'key-x', H('2025-06-20T10:10:00Z'), 50, '/v1/geolocation');
    // An account with a paid plan, over its allowance.
    add(2, planned, 'key-p', H('2025-06-10T08:00:00Z'), 12_000, '/v1/batch');
    const openFrom = H('2025-06-01T00:00:00Z');
    for (const [partition, events] of byPartition) await store.apply(partition, usageFold(events, { partition, openFrom }));
  });

  afterAll(async () => {
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  });

  const usage = (fields: Partial<GetUsageRequest>) =>
    getUsage(
      queries,
      GetUsageRequest.fromPartial({ accountId: account, granularity: RollupGranularity.ROLLUP_GRANULARITY_HOUR, ...fields }),
    );

  it('answers hours oldest first with empty hours, summed over partitions and keys, and a total', async () => {
    const answer = await usage({ from: H('2025-06-20T09:00:00Z'), to: H('2025-06-20T13:00:00Z') });
    expect(answer.buckets.map((b) => [b.periodStart?.toISOString(), b.lookups, b.requests])).toEqual([
      ['2025-06-20T09:00:00.000Z', 0, 0],
      ['2025-06-20T10:00:00.000Z', 23, 3],
      ['2025-06-20T11:00:00.000Z', 0, 0],
      ['2025-06-20T12:00:00.000Z', 5, 2],
    ]);
    expect(answer.buckets[1]).toMatchObject({
      requestsByEndpoint: { '/v1/geolocation': 2, '/v1/batch': 1 },
      lookupsByEndpoint: { '/v1/geolocation': 3, '/v1/batch': 20 },
      requestsByStatus: { 200: 2, 207: 1 },
    });
    expect(answer.total).toMatchObject({ lookups: 28, requests: 5 });
    expect(answer.asOf).toEqual(NOW);
  });

  it('narrows to one key, and answers days and months', async () => {
    const keyA = await usage({ apiKeyId: 'key-a', from: H('2025-06-20T00:00:00Z'), to: H('2025-06-21T00:00:00Z') });
    expect(keyA.total).toMatchObject({ lookups: 7, requests: 3 });
    expect(keyA.buckets).toHaveLength(24);

    const days = await usage({
      granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
      from: H('2025-05-31T00:00:00Z'),
      to: H('2025-06-02T00:00:00Z'),
    });
    expect(days.buckets.map((b) => [b.periodStart?.toISOString(), b.lookups])).toEqual([
      ['2025-05-31T00:00:00.000Z', 100],
      ['2025-06-01T00:00:00.000Z', 8],
    ]);
    const months = await usage({
      granularity: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
      from: H('2025-05-01T00:00:00Z'),
      to: H('2025-07-01T00:00:00Z'),
    });
    expect(months.buckets.map((b) => [b.periodStart?.toISOString(), b.lookups, b.requests])).toEqual([
      ['2025-05-01T00:00:00.000Z', 100, 1],
      ['2025-06-01T00:00:00.000Z', 36, 6],
    ]);
  });

  it('refuses a bad account id, an empty or reversed range, a missing granularity and more than 744 buckets', async () => {
    const range = { from: H('2025-06-20T09:00:00Z'), to: H('2025-06-20T13:00:00Z') };
    await expect(usage({ ...range, accountId: 'not-a-uuid' })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(usage({ from: range.to, to: range.from })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(usage({ ...range, granularity: RollupGranularity.ROLLUP_GRANULARITY_UNSPECIFIED })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(usage({ from: H('2025-05-01T00:00:00Z'), to: H('2025-06-01T01:00:00Z') })).rejects.toThrow(/744/);
    // Exactly a 31-day month of hours is allowed.
    expect((await usage({ from: H('2025-05-01T00:00:00Z'), to: H('2025-06-01T00:00:00Z') })).buckets).toHaveLength(744);
  });

  it('gives the month used against FREE when no plan is known (public API only, this month only)', async () => {
    const month = await getMonthUsage(queries, GetMonthUsageRequest.fromPartial({ accountId: account }));
    expect(month).toMatchObject({
      accountId: account,
      monthStart: H('2025-06-01T00:00:00Z'),
      resetsAt: H('2025-07-01T00:00:00Z'),
      used: 35,
      included: 50_000,
      remaining: 49_965,
      overage: 0,
    });
  });

  it("gives a paid plan's allowance, what remains and the overage", async () => {
    await plans.record({
      accountId: planned,
      planId: 'api-standard-monthly',
      includedPerMonth: 10_000,
      periodEnd: H('2025-07-05T00:00:00Z'),
      canceled: false,
      changedAt: H('2025-06-01T00:00:00Z'),
    });
    const month = await getMonthUsage(queries, GetMonthUsageRequest.fromPartial({ accountId: planned }));
    expect(month).toMatchObject({ used: 12_000, included: 10_000, remaining: 0, overage: 2_000, planId: 'api-standard-monthly' });
  });
});
