import { VisitSite, SiteVisit } from '@ipdata/proto/events/v1/visit';
import { GetVisitsRequest } from '@ipdata/proto/stats/v1/stats';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventProducer,
  MongoConnection,
  RedisConnection,
  createKafka,
  defineTopic,
  dlqTopicName,
  ensureTopics,
  topicSpecs,
  type EventConsumer,
  type TopicDefinition,
  topicEndOffsets,
} from '@ipdata/common';
import {
  TopicRecorder,
  mongoUrlWithDatabase,
  rawTopic,
  seededRandom,
  stackAddresses,
  uniqueName,
  waitFor,
} from '@ipdata/common/testing';
import { getVisits } from '../src/adapters/grpc/visits.grpc.js';
import { createVisitsConsumer, visitsGroupId } from '../src/adapters/kafka/visits.consumer.js';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { RedisEventClaims } from '../src/adapters/redis/event-claims.redis.js';
import { RedisUniqueVisitors } from '../src/adapters/redis/unique-visitors.redis.js';
import { VisitBatchHandler } from '../src/visits/visit-batch.handler.js';
import { VisitQueries } from '../src/visits/visit.queries.js';

/**
 * site.visit.v1 → page views (exact) and unique visitors (HyperLogLog) through the real consumer,
 * FerretDB and Redis: re-sent visits and a second full delivery of the topic change nothing,
 * unique visitors stay within ±2% per day, plat, page and page+plat, and poison goes to the DLQ.
 */

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

const DAY1 = new Date('2025-11-03T00:00:00.000Z');
const DAY2 = new Date('2025-11-04T00:00:00.000Z');
const DAY3 = new Date('2025-11-05T00:00:00.000Z');
const PAGES = ['/', '/ipv6', '/asn', '/newsip66/{id}'];
const PLATS = ['pc', 'wap'] as const;
const VISITORS = 20_000;

interface SentVisit {
  id: string;
  day: Date;
  page: string;
  plat: (typeof PLATS)[number];
  visitor: string;
}

/** The true figures of a set of visits for one scope. */
function truth(visits: readonly SentVisit[], keep: (visit: SentVisit) => boolean): { pv: number; uv: number } {
  const kept = visits.filter(keep);
  return { pv: kept.length, uv: new Set(kept.map((visit) => visit.visitor)).size };
}

function expectWithin2Percent(estimate: number, exact: number, what: string): void {
  // HyperLogLog's standard error is 0.81%: 2% is about 2.5 sigma; small sets are counted almost exactly.
  expect(Math.abs(estimate - exact), `${what}: estimate ${estimate}, exact ${exact}`).toBeLessThanOrEqual(
    Math.max(1, exact * 0.02),
  );
}

function visitTopic(name: string): TopicDefinition<SiteVisit> {
  return defineTopic({
    name,
    eventType: 'ipdata.events.v1.SiteVisit',
    codec: SiteVisit,
    partitions: 6,
    retentionMs: 3_600_000,
    key: 'visitor id',
    producers: ['test'],
    consumers: ['test'],
    description: 'test topic',
  });
}

describe('visits: page views exact, unique visitors by HyperLogLog (real stack)', () => {
  let kafka: Kafka;
  let producer: EventProducer;
  let mongo: MongoConnection;
  let redis: RedisConnection;
  let topic: TopicDefinition<SiteVisit>;
  let queries: VisitQueries;
  let handler: VisitBatchHandler;
  const consumers: EventConsumer<SiteVisit>[] = [];
  const sent: SentVisit[] = [];
  /** The group of the consumer that stays for the whole file. */
  let firstGroup = '';

  beforeAll(async () => {
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'stats-visits-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'bff-cn' }, logger);
    mongo = MongoConnection.fromConfig({ url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_visits')) }, logger);
    redis = RedisConnection.fromConfig({ url: stack.redisUrl }, logger);
    await Promise.all([producer.start(), mongo.start(), redis.start()]);
    topic = visitTopic(uniqueName('test.site-visit'));
    await ensureTopics(kafka, topicSpecs([topic]), logger);

    const keyPrefix = `${uniqueName('stats-test')}:`;
    const store = new MongoCounterStore(mongo.connection, () => 'visit_rollups', logger);
    const visitors = new RedisUniqueVisitors(redis.client, { keyPrefix });
    handler = new VisitBatchHandler({
      claims: new RedisEventClaims(redis.client, { keyPrefix: `${keyPrefix}visit-claim:`, ttlSeconds: 3600 }),
      store,
      visitors,
    });
    queries = new VisitQueries({ reader: new MongoCounterReader(mongo.connection, () => 'visit_rollups'), visitors });
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.shutdown()));
    await Promise.all([producer?.shutdown(), mongo?.shutdown(), redis?.shutdown()]);
  });

  /** Starts a visits consumer in a group of its own; returns the group id. */
  async function startConsumer(): Promise<string> {
    const kafkaGroupId = uniqueName('stats-test');
    const consumer = createVisitsConsumer(
      { kafka, kafkaGroupId, handler, dlqProducer: producer, maxBatchEvents: 2000, topic },
      logger,
    );
    consumers.push(consumer);
    await consumer.start();
    await consumer.waitUntilJoined();
    return visitsGroupId(kafkaGroupId);
  }

  /** Resolves once the group has committed every record the topic holds now. */
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

  async function send(visits: readonly SentVisit[]): Promise<void> {
    for (let start = 0; start < visits.length; start += 2000) {
      await producer.sendMany(
        topic,
        visits.slice(start, start + 2000).map((visit) => ({
          key: visit.visitor,
          event: SiteVisit.fromPartial({
            meta: { id: visit.id, time: new Date(visit.day.getTime() + 3_600_000 * 5) },
            site: VisitSite.VISIT_SITE_CN,
            page: visit.page,
            plat: visit.plat,
            visitorId: visit.visitor,
            referrer: 'https://example.com/',
          }),
        })),
      );
    }
  }

  function visitsQuery(page = '', plat = '') {
    return getVisits(queries, GetVisitsRequest.fromPartial({ from: DAY1, to: DAY3, site: VisitSite.VISIT_SITE_CN, page, plat }));
  }

  it('counts every page view once and estimates unique visitors within 2%, per day, plat, page and page+plat', async () => {
    // Day 1: 20,000 visitors with 1 to 3 views each; day 2: half of them again plus 5,000 new ones.
    const random = seededRandom(12);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    for (let visitor = 0; visitor < VISITORS + 5_000; visitor++) {
      const days = visitor < VISITORS / 2 ? [DAY1, DAY2] : visitor < VISITORS ? [DAY1] : [DAY2];
      for (const day of days) {
        const views = 1 + Math.floor(random() * 3);
        for (let view = 0; view < views; view++) {
          sent.push({
            id: `${uniqueName('visit')}-${sent.length}`,
            day,
            page: pick(PAGES),
            plat: pick(PLATS),
            visitor: `visitor-${visitor}`,
          });
        }
      }
    }
    const groupId = await startConsumer();
    firstGroup = groupId;
    await send(sent);
    // Re-sent with the same ids (a BFF retry after a timeout): not counted again.
    await send(sent.filter((_, index) => index % 10 === 3));

    await waitUntilConsumed(groupId);
    const answer = await visitsQuery();
    expect(answer.pv, 'page views once every record was consumed').toBe(sent.length);

    const scopes: Array<{ page: string; plat: string }> = [{ page: '', plat: '' }];
    for (const plat of PLATS) scopes.push({ page: '', plat });
    for (const page of PAGES) {
      scopes.push({ page, plat: '' });
      for (const plat of PLATS) scopes.push({ page, plat });
    }
    for (const scope of scopes) {
      const inScope = (visit: SentVisit) =>
        (scope.page === '' || visit.page === scope.page) && (scope.plat === '' || visit.plat === scope.plat);
      const response = await visitsQuery(scope.page, scope.plat);
      const what = `page ${scope.page || '*'} plat ${scope.plat || '*'}`;
      expect(response.days.map((day) => day.day)).toEqual([DAY1, DAY2]);
      for (const [index, day] of [DAY1, DAY2].entries()) {
        const exact = truth(sent, (visit) => visit.day === day && inScope(visit));
        expect(response.days[index]?.pv, `${what} pv ${day.toISOString()}`).toBe(exact.pv);
        expectWithin2Percent(response.days[index]?.uv ?? -1, exact.uv, `${what} uv ${day.toISOString()}`);
      }
      const range = truth(sent, inScope);
      expect(response.pv, `${what} range pv`).toBe(range.pv);
      expectWithin2Percent(response.uv, range.uv, `${what} range uv`);
      // Half of day 1's visitors came back on day 2: the range counts them once.
      expect(response.uv).toBeLessThanOrEqual((response.days[0]?.uv ?? 0) + (response.days[1]?.uv ?? 0));
    }
  }, 240_000);

  it('changes nothing when the whole topic is delivered again (another consumer group from the start)', async () => {
    const before = await visitsQuery('/ipv6', 'wap');
    const all = await visitsQuery();
    // A new group reads the topic from the start: every record is delivered a second time.
    const again = await startConsumer();
    try {
      await waitUntilConsumed(again);
      expect(await visitsQuery('/ipv6', 'wap')).toEqual(before);
      expect(await visitsQuery()).toEqual(all);
    } finally {
      // One consumer from here on, so each poison record is dead-lettered once.
      await consumers.pop()?.shutdown();
    }
  }, 240_000);

  it('moves invalid visits to the DLQ with the reason and goes on counting', async () => {
    const before = (await visitsQuery()).pv;
    const bad = SiteVisit.fromPartial({
      meta: { id: uniqueName('bad'), source: 'bff-cn', time: new Date(DAY1.getTime() + 1000) },
      site: VisitSite.VISIT_SITE_CN,
      page: '/',
      plat: 'tv',
      visitorId: 'visitor-bad',
    });
    const noVisitor = SiteVisit.fromPartial({ ...bad, meta: { ...bad.meta!, id: uniqueName('bad') }, plat: 'pc', visitorId: '' });
    await producer.sendMany(topic, [
      { key: 'visitor-bad', event: bad },
      { key: 'visitor-bad', event: noVisitor },
    ]);
    const good: SentVisit = { id: uniqueName('good'), day: DAY1, page: '/', plat: 'pc', visitor: 'visitor-bad' };
    await send([good]);
    const dlq = await TopicRecorder.start(rawTopic(dlqTopicName(topic.name)), { kafka });
    const badIds = new Set([bad.meta?.id, noVisitor.meta?.id]);
    const ours = () =>
      dlq.records.filter((record) => badIds.has(record.headers['ce_id']) && record.headers['dlq_consumer_group'] === firstGroup);
    const dead = await waitFor(() => (ours().length >= 2 ? ours() : undefined), {
      what: 'the 2 poison visits in the DLQ',
    }).finally(() => dlq.stop());
    expect(dead.map((record) => record.headers['dlq_error']).sort()).toEqual([
      'plat must be "pc" or "wap", got "tv"',
      'visitor_id is missing',
    ]);
    expect(dead[0]?.headers['dlq_source_topic']).toBe(topic.name);
    expect(dead[0]?.headers['dlq_consumer_group']).toMatch(/\.visits$/);
    await waitFor(async () => (await visitsQuery()).pv === before + 1, { what: 'the valid visit after the poison' });
  });
});
