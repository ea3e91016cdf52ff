import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { EventProducer, MongoConnection, TOPICS, createKafka, ensureTopics, topicSpecs, type EventConsumer } from '@ipdata/common';
import { mongoUrlWithDatabase, seededRandom, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { ledgerConsumer } from '../src/adapters/kafka/ledger.consumer.js';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { RedisEventClaims } from '../src/adapters/redis/event-claims.redis.js';
import { InProcessClosingGate } from '../src/closing/closing-gate.js';
import { hourStart } from '../src/counters/counter-delta.js';
import { sumCounters } from '../src/counters/counter-query.js';
import { LedgerBatchHandler } from '../src/ledger/ledger-batch.handler.js';
import { usageFold } from '../src/ledger/usage-fold.js';
import { trendFold } from '../src/trends/trend-fold.js';
import { plannedEvents, sendAll } from './fixtures/usage-load.js';

// Temporary measurement (h1), not part of the suite.
const logger = pino({ level: 'silent' });
const stack = stackAddresses();
const topic = TOPICS.usageLookup;
const N = Number(process.env['BENCH_EVENTS'] ?? 50_000);
const TRENDS = process.env['BENCH_TRENDS'] !== '0';

async function offsets(kafka: Kafka, groupId?: string): Promise<Map<number, string>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (groupId === undefined) return new Map((await admin.fetchTopicOffsets(topic.name)).map((o) => [o.partition, o.high]));
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, p.offset]));
  } finally {
    await admin.disconnect();
  }
}

describe('ledger throughput', () => {
  const consumers: EventConsumer<UsageEvent>[] = [];
  afterAll(async () => {
    for (const c of consumers) await c.shutdown();
  });
  it(`${N} events over 12 partitions`, async () => {
    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'bench' }, logger);
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
    await producer.start();
    const redis = new Redis(stack.redisUrl);
    const mongo = MongoConnection.fromConfig({ url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_bench').replace(/-/g, '_')) }, logger);
    await mongo.start();
    const prefix = uniqueName('bench');
    const now = hourStart(new Date());
    const events = plannedEvents(
      { prefix, accounts: 20, keysPerAccount: 3, hours: [now, new Date(now.getTime() + 1_800_000 - 1_800_000)], random: seededRandom(3) },
      N,
    );
    const start = await offsets(kafka);
    await sendAll(producer, events, { batch: 2000 });
    const end = await offsets(kafka);
    const groupId = uniqueName('bench-group');
    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId, topic: topic.name, partitions: [...start].map(([partition, offset]) => ({ partition, offset })) });
    await admin.disconnect();
    const usage = new MongoCounterStore(mongo.connection, () => 'usage_rollups', logger);
    const trends = new MongoCounterStore(mongo.connection, () => 'trend_rollups', logger);
    const targets = TRENDS ? [{ store: usage, fold: usageFold }, { store: trends, fold: trendFold }] : [{ store: usage, fold: usageFold }];
    const handler = new LedgerBatchHandler({
      claims: new RedisEventClaims(redis, { keyPrefix: `${prefix}:claim:`, ttlSeconds: 3600 }),
      gate: new InProcessClosingGate(now),
      targets: () => targets,
    });
    const t0 = performance.now();
    const consumer = ledgerConsumer({ kafka, groupId, dlqProducer: producer, handler, maxBatchEvents: 2000 }, logger);
    consumers.push(consumer);
    await consumer.start();
    await waitFor(
      async () => {
        const done = await offsets(kafka, groupId);
        return [...end].every(([p, o]) => done.get(p) === o);
      },
      { timeoutMs: 1_500_000, intervalMs: 500 },
    );
    const seconds = (performance.now() - t0) / 1000;
    const sums = sumCounters(await new MongoCounterReader(mongo.connection, () => 'usage_rollups').find({ equals: { g: 'h' }, from: new Date(0), to: new Date(4e12) }));
    console.info(`ledger: ${N} events in ${seconds.toFixed(1)} s = ${(N / seconds).toFixed(0)} events/s (trends ${TRENDS}); requests ${sums['requests']}`);
    expect(sums['requests']).toBe(N);
    await producer.shutdown();
    redis.disconnect();
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  }, 1_600_000);
});
