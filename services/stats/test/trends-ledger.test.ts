import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventConsumer,
  EventProducer,
  MongoConnection,
  RedisConnection,
  createKafka,
  defineTopic,
  ensureTopics,
  topicSpecs,
  type TopicDefinition,
  topicEndOffsets,
} from '@ipdata/common';
import { mongoUrlWithDatabase, seededRandom, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { RedisEventClaims } from '../src/adapters/redis/event-claims.redis.js';
import { LedgerBatchHandler } from '../src/ledger/ledger-batch.handler.js';
import type { ClosingGate } from '../src/ledger/ledger-ports.js';
import { trendFold } from '../src/trends/trend-fold.js';
import { TrendQueries, type TrendCount, type TrendResult } from '../src/trends/trend.queries.js';

/**
 * Trends through the ledger path: usage events on Kafka → the ledger's batch handler (validation,
 * claims in Redis, trendFold, counter store on FerretDB) → the trend queries. Events re-sent with
 * the same id and a second delivery of the whole topic (another group from the start) leave the
 * counts at exactly the distinct events.
 */

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

const HOUR = new Date('2025-09-01T10:00:00.000Z');
const DAY = new Date('2025-09-01T00:00:00.000Z');
const NEXT_DAY = new Date('2025-09-02T00:00:00.000Z');
const EVENTS = 3_000;
const COUNTRIES = ['CN', 'CN', 'US', 'DE', ''];
const PROVINCES = ['广东', '北京', ''];
const ENDPOINTS = ['ip_search', 'asn_search', '/v1/ip/{ip}'];
const CHANNELS = [UsageChannel.USAGE_CHANNEL_WEB_CN, UsageChannel.USAGE_CHANNEL_WEB_EN, UsageChannel.USAGE_CHANNEL_PUBLIC_API];
/** Trends do not depend on closing: every hour is open. */
const OPEN_GATE: ClosingGate = { enter: () => ({ openFrom: new Date(0), leave: () => undefined }) };

function ledgerTopic(name: string): TopicDefinition<UsageEvent> {
  return defineTopic({
    name,
    eventType: 'ipdata.events.v1.UsageEvent',
    codec: UsageEvent,
    partitions: 3,
    retentionMs: 3_600_000,
    key: 'api key id, or visitor id for anonymous lookups',
    producers: ['test'],
    consumers: ['test'],
    description: 'test topic',
  });
}

function expectedTotal(events: readonly UsageEvent[], key: (event: UsageEvent) => string): TrendCount[] {
  const rows = new Map<string, TrendCount>();
  for (const event of events) {
    if (key(event) === '') continue;
    const row = rows.get(key(event)) ?? { key: key(event), requests: 0, lookups: 0 };
    row.requests += 1;
    row.lookups += event.count;
    rows.set(row.key, row);
  }
  return [...rows.values()].sort((a, b) => b.requests - a.requests || b.lookups - a.lookups || (a.key < b.key ? -1 : 1));
}

describe('trends through the ledger handler (Kafka, Redis claims, FerretDB)', () => {
  let kafka: Kafka;
  let producer: EventProducer;
  let mongo: MongoConnection;
  let redis: RedisConnection;
  let topic: TopicDefinition<UsageEvent>;
  let handler: LedgerBatchHandler;
  let queries: TrendQueries;
  const consumers: EventConsumer<UsageEvent>[] = [];
  const distinct: UsageEvent[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'stats-trends-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'bff-cn' }, logger);
    mongo = MongoConnection.fromConfig({ url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_trends_ledger')) }, logger);
    redis = RedisConnection.fromConfig({ url: stack.redisUrl }, logger);
    await Promise.all([producer.start(), mongo.start(), redis.start()]);
    topic = ledgerTopic(uniqueName('test.usage-trends'));
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const collection = () => 'trend_rollups';
    const store = new MongoCounterStore(mongo.connection, collection, logger);
    handler = new LedgerBatchHandler({
      claims: new RedisEventClaims(redis.client, { keyPrefix: `${uniqueName('stats-test')}:claim:`, ttlSeconds: 3600 }),
      gate: OPEN_GATE,
      targets: () => [{ store, fold: trendFold }],
    });
    queries = new TrendQueries(new MongoCounterReader(mongo.connection, collection));
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.shutdown()));
    await Promise.all([producer?.shutdown(), mongo?.shutdown(), redis?.shutdown()]);
  });

  /** A ledger consumer in a group of its own, reading the topic from the start; returns the group id. */
  async function startConsumer(): Promise<string> {
    const groupId = uniqueName('stats-test');
    const consumer = EventConsumer.fromConfig<UsageEvent>(
      {
        kafka,
        groupId,
        topic,
        dlqProducer: producer,
        maxBatchEvents: 500,
        batchHandler: async (batch) => ({ poison: (await handler.handle(batch)).poison }),
      },
      logger,
    );
    consumers.push(consumer);
    await consumer.start();
    await consumer.waitUntilJoined();
    return groupId;
  }

  async function waitUntilConsumed(groupId: string): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const ends = await topicEndOffsets(kafka, topic.name);
      await waitFor(
        async () => {
          const [committed] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
          return ends.every((end) => committed?.partitions.find((p) => p.partition === end.partition)?.offset === end.high);
        },
        { timeoutMs: 120_000, intervalMs: 500, what: `${groupId} to read the whole topic` },
      );
    } finally {
      await admin.disconnect();
    }
  }

  async function send(events: readonly UsageEvent[]): Promise<void> {
    for (let start = 0; start < events.length; start += 1000) {
      await producer.sendMany(
        topic,
        events.slice(start, start + 1000).map((event) => ({ event, key: event.apiKeyId || event.visitorId })),
      );
    }
  }

  const range = { from: DAY, to: NEXT_DAY, granularity: 'day' as const, channel: null, limit: 0 };
  const snapshot = (): Promise<TrendResult[]> =>
    Promise.all([queries.countryTrend(range), queries.provinceTrend(range), queries.searchCounts(range)]);

  /** What the trends say, without the time they were read at. */
  const figures = (results: TrendResult[]) => results.map(({ buckets, total }) => ({ buckets, total }));

  it('counts each distinct event once per country, province and endpoint, whatever was re-sent', async () => {
    const random = seededRandom(3);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    for (let index = 0; index < EVENTS; index++) {
      const channel = pick(CHANNELS);
      const country = pick(COUNTRIES);
      const publicApi = channel === UsageChannel.USAGE_CHANNEL_PUBLIC_API;
      distinct.push(
        UsageEvent.fromPartial({
          meta: { id: uniqueName(`lookup-${index}`), time: new Date(HOUR.getTime() + Math.floor(random() * 7_200_000)) },
          channel,
          apiKeyId: publicApi ? `key-${index % 7}` : '',
          accountId: publicApi ? `acct-${index % 7}` : '',
          visitorId: publicApi ? '' : `visitor-${index % 50}`,
          countryCode: country,
          province: country === 'CN' ? pick(PROVINCES) : '',
          endpoint: pick(ENDPOINTS),
          count: Math.floor(random() * 3),
          httpStatus: 200,
        }),
      );
    }
    const groupId = await startConsumer();
    await send(distinct);
    // A BFF re-sends some events with the same id (a send that timed out but had arrived).
    await send(distinct.filter((_, index) => index % 7 === 2));
    await waitUntilConsumed(groupId);

    const [countries, provinces, endpoints] = await snapshot();
    expect(countries?.total).toEqual(expectedTotal(distinct, (event) => event.countryCode));
    expect(provinces?.total).toEqual(expectedTotal(distinct, (event) => event.province));
    expect(endpoints?.total).toEqual(expectedTotal(distinct, (event) => event.endpoint));
    expect(endpoints?.total.reduce((sum, row) => sum + row.requests, 0)).toBe(EVENTS);

    // Per hour and per channel: the two hours of the day hold everything, channels apart.
    const webCn = UsageChannel.USAGE_CHANNEL_WEB_CN;
    const hourly = await queries.countryTrend({
      from: HOUR,
      to: new Date(HOUR.getTime() + 7_200_000),
      granularity: 'hour',
      channel: webCn,
      limit: 1,
    });
    for (const bucket of hourly.buckets) {
      const inHour = distinct.filter(
        (event) =>
          event.channel === webCn &&
          event.meta!.time!.getTime() >= bucket.periodStart.getTime() &&
          event.meta!.time!.getTime() < bucket.periodStart.getTime() + 3_600_000,
      );
      expect(bucket.counts).toEqual(expectedTotal(inHour, (event) => event.countryCode).slice(0, 1));
    }
  });

  it('keeps the same counts when every record is delivered again', async () => {
    const before = await snapshot();
    await waitUntilConsumed(await startConsumer());
    expect(figures(await snapshot())).toEqual(figures(before));
  });
});
