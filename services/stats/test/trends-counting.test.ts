import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { GetCountryTrendRequest } from '@ipdata/proto/stats/v1/stats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoConnection } from '@ipdata/common';
import { ManualClock, mongoUrlWithDatabase, seededRandom, stackAddresses, uniqueName } from '@ipdata/common/testing';
import { getCountryTrend } from '../src/adapters/grpc/trends.grpc.js';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import type { CountedEvent } from '../src/ledger/ledger-ports.js';
import { trendFold, type TrendKind } from '../src/trends/trend-fold.js';
import { TrendQueries, type TrendCount } from '../src/trends/trend.queries.js';

/**
 * Lookup trends on FerretDB: trendFold's deltas applied by the common counter store, per source
 * partition in write rounds of random sizes, then delivered again from earlier offsets with other
 * round boundaries (a crash before the offset commit). The queries must answer the exact counts
 * of the distinct events, per country, province and endpoint, per hour and day, per channel.
 */

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

const DAY1 = new Date('2025-10-01T00:00:00.000Z');
const DAY3 = new Date('2025-10-03T00:00:00.000Z');
const PARTITIONS = 3;
const EVENTS_PER_PARTITION = 1_500;
// Live traffic falls in few hours: 22:00 to 02:00 across the day boundary.
const FIRST_HOUR = new Date('2025-10-01T22:00:00.000Z');
const HOURS = 4;
const CHANNELS = [UsageChannel.USAGE_CHANNEL_PUBLIC_API, UsageChannel.USAGE_CHANNEL_WEB_EN, UsageChannel.USAGE_CHANNEL_WEB_CN];
const COUNTRIES = ['CN', 'CN', 'CN', 'US', 'DE', 'JP', ''];
const PROVINCES = ['广东', '北京', '上海', ''];
// '.' and '$' are not allowed in field names: the store must keep them apart all the same.
const ENDPOINTS = ['ip_search', '/v1/ip/{ip}', '/v1/batch', 'tools.v2/$x', ''];

/** Expected counts computed straight from the events. */
function expected(events: readonly CountedEvent[], kind: TrendKind, keep: (event: CountedEvent) => boolean): TrendCount[] {
  const rows = new Map<string, TrendCount>();
  for (const counted of events) {
    if (!keep(counted)) continue;
    const { event } = counted;
    const key = kind === 'country' ? event.countryCode : kind === 'province' ? event.province : event.endpoint;
    if (key === '') continue;
    const row = rows.get(key) ?? { key, requests: 0, lookups: 0 };
    row.requests += 1;
    row.lookups += event.count;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.requests - a.requests || b.lookups - a.lookups || (a.key < b.key ? -1 : 1));
}

describe('trends: country, province and endpoint counts from the ledger folds (FerretDB)', () => {
  let mongo: MongoConnection;
  let store: MongoCounterStore;
  let queries: TrendQueries;
  const random = seededRandom(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const byPartition: CountedEvent[][] = [];

  beforeAll(async () => {
    mongo = MongoConnection.fromConfig({ url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_trends')) }, logger);
    await mongo.start();
    const collection = () => 'trend_rollups';
    store = new MongoCounterStore(mongo.connection, collection, logger);
    queries = new TrendQueries(new MongoCounterReader(mongo.connection, collection), new ManualClock(DAY3));
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const events: CountedEvent[] = [];
      for (let offset = 0; offset < EVENTS_PER_PARTITION; offset++) {
        const country = pick(COUNTRIES);
        const event = UsageEvent.fromPartial({
          channel: pick(CHANNELS),
          countryCode: country,
          province: country === 'CN' ? pick(PROVINCES) : '',
          endpoint: pick(ENDPOINTS),
          count: Math.floor(random() * 4),
        });
        const time = new Date(FIRST_HOUR.getTime() + Math.floor(random() * HOURS * 3_600_000));
        events.push({ event, id: `${partition}-${offset}`, time, partition, offset });
      }
      byPartition.push(events);
    }
  });

  afterAll(async () => {
    await mongo?.shutdown();
  });

  /** Write rounds of 1 to `maxRound` events from `from` on, as the ledger handler would. */
  async function deliver(partition: number, from: number, maxRound: number): Promise<number> {
    const events = byPartition[partition] ?? [];
    let skipped = 0;
    for (let start = from; start < events.length;) {
      const size = 1 + Math.floor(random() * maxRound);
      const round = events.slice(start, start + size);
      const result = await store.apply(partition, trendFold(round, { partition, openFrom: DAY1 }));
      skipped += result.skippedIncrements;
      start += size;
    }
    return skipped;
  }

  const all = () => byPartition.flat();
  const within = (from: Date, to: Date) => (counted: CountedEvent) => counted.time >= from && counted.time < to;

  async function snapshot() {
    return Promise.all([
      queries.countryTrend({ from: DAY1, to: DAY3, granularity: 'day', channel: null, limit: 0 }),
      queries.provinceTrend({ from: DAY1, to: DAY3, granularity: 'hour', channel: null, limit: 0 }),
      queries.searchCounts({ from: DAY1, to: DAY3, granularity: 'day', channel: UsageChannel.USAGE_CHANNEL_WEB_CN, limit: 0 }),
    ]);
  }

  it('answers the exact counts of the events per country, province and endpoint', async () => {
    for (let partition = 0; partition < PARTITIONS; partition++) {
      expect(await deliver(partition, 0, 600)).toBe(0);
    }

    const countries = await queries.countryTrend({ from: DAY1, to: DAY3, granularity: 'day', channel: null, limit: 0 });
    expect(countries.buckets.map((bucket) => bucket.periodStart)).toEqual([DAY1, new Date('2025-10-02T00:00:00Z')]);
    for (const bucket of countries.buckets) {
      const next = new Date(bucket.periodStart.getTime() + 86_400_000);
      expect(bucket.counts).toEqual(expected(all(), 'country', within(bucket.periodStart, next)));
    }
    expect(countries.total).toEqual(expected(all(), 'country', () => true));
    expect(countries.total.reduce((sum, row) => sum + row.requests, 0)).toBe(
      all().filter((c) => c.event.countryCode !== '').length,
    );

    const provinces = await queries.provinceTrend({ from: DAY1, to: DAY3, granularity: 'hour', channel: null, limit: 0 });
    expect(provinces.buckets).toHaveLength(48);
    expect(provinces.buckets.filter((bucket) => bucket.counts.length > 0)).toHaveLength(HOURS);
    for (const bucket of provinces.buckets) {
      const next = new Date(bucket.periodStart.getTime() + 3_600_000);
      expect(bucket.counts).toEqual(expected(all(), 'province', within(bucket.periodStart, next)));
    }
    expect(provinces.total).toEqual(expected(all(), 'province', () => true));

    const webCn = UsageChannel.USAGE_CHANNEL_WEB_CN;
    const endpoints = await queries.searchCounts({ from: DAY1, to: DAY3, granularity: 'day', channel: webCn, limit: 2 });
    expect(endpoints.total).toEqual(expected(all(), 'endpoint', (c) => c.event.channel === webCn).slice(0, 2));
    expect(endpoints.buckets.every((bucket) => bucket.counts.length === 2)).toBe(true);
    expect(endpoints.asOf).toEqual(DAY3);
    // The encoded endpoint comes back as it was sent.
    const allEndpoints = await queries.searchCounts({ from: DAY1, to: DAY3, granularity: 'day', channel: null, limit: 0 });
    expect(allEndpoints.total.map((row) => row.key).sort()).toEqual(['/v1/batch', '/v1/ip/{ip}', 'ip_search', 'tools.v2/$x']);

    // Through the gRPC mapping: the same figures, channel UNSPECIFIED = every channel.
    const response = await getCountryTrend(
      queries,
      GetCountryTrendRequest.fromPartial({
        query: { from: DAY1, to: DAY3, granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY, limit: 3 },
      }),
    );
    expect(response.trend?.total).toEqual(countries.total.slice(0, 3));
  }, 180_000);

  it('does not change when rounds are delivered again from earlier offsets with other boundaries', async () => {
    const before = await snapshot();
    let skipped = 0;
    for (let partition = 0; partition < PARTITIONS; partition++) {
      // A crash lost the commits of the last ~quarter of the partition, or of all of it.
      const from = partition === 0 ? 0 : Math.floor(EVENTS_PER_PARTITION * (0.5 + random() / 4));
      skipped += await deliver(partition, from, 400);
    }
    expect(skipped).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  }, 180_000);
});
