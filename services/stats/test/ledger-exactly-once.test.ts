import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventProducer,
  MongoConnection,
  TOPICS,
  UnavailableError,
  createKafka,
  dlqTopicName,
  ensureTopics,
  topicSpecs,
  type EventConsumer,
  topicEndOffsets,
} from '@ipdata/common';
import { TopicRecorder, mongoUrlWithDatabase, rawTopic, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { ledgerConsumer } from '../src/adapters/kafka/ledger.consumer.js';
import { MongoCounterReader, MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { RedisEventClaims } from '../src/adapters/redis/event-claims.redis.js';
import { carriedKey } from '../src/closing/carry.js';
import { InProcessClosingGate } from '../src/closing/closing-gate.js';
import { hourStart, type CounterStore } from '../src/counters/counter-delta.js';
import { sumCounters } from '../src/counters/counter-query.js';
import { LedgerBatchHandler } from '../src/ledger/ledger-batch.handler.js';
import type { LedgerTarget } from '../src/ledger/ledger-ports.js';
import { usageFold } from '../src/ledger/usage-fold.js';

/**
 * The ledger's exactly-once core against the real stack: usage.lookup.v1 through the common
 * EventConsumer in batch mode, Redis claims, the closing gate and the watermarked counter store on
 * FerretDB. The consumer group starts at the topic's current end (the topic is shared with other
 * test files); each test uses accounts of its own and reads only their counters.
 */

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const topic = TOPICS.usageLookup;
const ALL_TIME = { from: new Date(0), to: new Date('2100-01-01T00:00:00.000Z') };

function usage(accountId: string, apiKeyId: string, id: string, time: Date, count = 1): UsageEvent {
  return UsageEvent.fromPartial({
    meta: { id, source: 'bff-en', time },
    channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    accountId,
    apiKeyId,
    ip: '203.0.113.9',
    countryCode: 'DE',
    endpoint: '/v1/geolocation',
    count,
    httpStatus: 200,
  });
}

async function endOffsets(kafka: Kafka): Promise<Map<number, string>> {
  return new Map((await topicEndOffsets(kafka, topic.name)).map((o) => [o.partition, o.high]));
}

async function committed(kafka: Kafka, groupId: string): Promise<Map<number, string>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, p.offset]));
  } finally {
    await admin.disconnect();
  }
}

/** Points a group that has no member at the given positions (start at the end, or rewind for a re-delivery). */
async function setGroupOffsets(kafka: Kafka, groupId: string, offsets: ReadonlyMap<number, string>): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.setOffsets({
      groupId,
      topic: topic.name,
      partitions: [...offsets].map(([partition, offset]) => ({ partition, offset })),
    });
  } finally {
    await admin.disconnect();
  }
}

describe('ledger: each distinct usage event counted exactly once (Kafka, Redis, FerretDB)', () => {
  let kafka: Kafka;
  let producer: EventProducer;
  let redis: Redis;
  let mongo: MongoConnection;
  let reader: MongoCounterReader;
  let store: MongoCounterStore;
  let claimPrefix: string;
  const gate = new InProcessClosingGate(hourStart(new Date()));
  const running: EventConsumer<UsageEvent>[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'stats-ledger-test' }, logger);
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
    await producer.start();
    redis = new Redis(stack.redisUrl);
    mongo = MongoConnection.fromConfig(
      { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_ledger').replace(/-/g, '_')) },
      logger,
    );
    await mongo.start();
    store = new MongoCounterStore(mongo.connection, () => 'usage_rollups', logger);
    reader = new MongoCounterReader(mongo.connection, () => 'usage_rollups');
    claimPrefix = `${uniqueName('stats-ledger-test')}:claim:`;
  });

  afterAll(async () => {
    await Promise.all(running.map((consumer) => consumer.shutdown()));
    await producer.shutdown();
    const keys = await redis.keys(`${claimPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  });

  async function startLedger(groupId: string, maxBatchEvents: number, target: CounterStore = store) {
    const targets: readonly LedgerTarget[] = [{ store: target, fold: usageFold }];
    const handler = new LedgerBatchHandler({
      claims: new RedisEventClaims(redis, { keyPrefix: claimPrefix, ttlSeconds: 3600 }),
      gate,
      targets: () => targets,
    });
    const consumer = ledgerConsumer({ kafka, groupId, dlqProducer: producer, handler, maxBatchEvents }, logger);
    running.push(consumer);
    await consumer.start();
    await consumer.waitUntilJoined();
    return consumer;
  }

  async function stop(consumer: EventConsumer<UsageEvent>): Promise<void> {
    running.splice(running.indexOf(consumer), 1);
    await consumer.shutdown();
  }

  async function waitCommittedTo(groupId: string, end: ReadonlyMap<number, string>): Promise<void> {
    await waitFor(
      async () => {
        const done = await committed(kafka, groupId);
        return [...end].every(([partition, offset]) => done.get(partition) === offset);
      },
      { what: 'the ledger group to commit up to the end of the topic', timeoutMs: 60_000 },
    );
  }

  async function accountCounters(accountId: string, g: 'h' | 'd' = 'h'): Promise<Record<string, number>> {
    return sumCounters(await reader.find({ equals: { accountId, g }, ...ALL_TIME }));
  }

  it('counts re-sent ids once, and a second delivery of the same records with other round boundaries changes nothing', async () => {
    const groupId = uniqueName('stats-ledger');
    const start = await endOffsets(kafka);
    await setGroupOffsets(kafka, groupId, start);
    const account = uniqueName('acct');
    const now = new Date();
    // 8 keys → several partitions; 300 distinct events with count 1..3.
    const events = Array.from({ length: 300 }, (_, i) => ({
      event: usage(account, `${account}-key-${i % 8}`, `${account}-e${i}`, now, 1 + (i % 3)),
      key: `${account}-key-${i % 8}`,
    }));
    const distinctLookups = events.reduce((sum, e) => sum + e.event.count, 0);
    await producer.sendMany(topic, events);
    // The producer retried 40 of them: same ids, under other keys (so other partitions) and later offsets.
    await producer.sendMany(
      topic,
      events.slice(0, 40).map((e, i) => ({ event: e.event, key: `${account}-key-${(i + 3) % 8}` })),
    );
    const end = await endOffsets(kafka);

    const first = await startLedger(groupId, 7);
    await waitCommittedTo(groupId, end);
    await stop(first);
    const once = await accountCounters(account);
    expect(once['lookups']).toBe(distinctLookups);
    expect(once['requests']).toBe(300);
    expect(await accountCounters(account, 'd')).toMatchObject({ lookups: distinctLookups, requests: 300 });

    // The whole range again, in rounds of another size (a crash before every commit).
    await setGroupOffsets(kafka, groupId, start);
    const second = await startLedger(groupId, 23);
    await waitCommittedTo(groupId, end);
    await stop(second);
    expect(await accountCounters(account)).toEqual(once);
  });

  it('a round that claimed its events and crashed before its writes counts them once when they come again', async () => {
    const groupId = uniqueName('stats-ledger');
    const start = await endOffsets(kafka);
    await setGroupOffsets(kafka, groupId, start);
    const account = uniqueName('acct');
    const now = new Date();
    const events = Array.from({ length: 60 }, (_, i) => ({
      event: usage(account, `${account}-key-${i % 4}`, `${account}-c${i}`, now, 2),
      key: `${account}-key-${i % 4}`,
    }));
    await producer.sendMany(topic, events);
    const end = await endOffsets(kafka);

    // The store is down: the round claims, then fails to write (retried, nothing committed).
    let writeAttempts = 0;
    const down: CounterStore = {
      collectionName: 'usage_rollups',
      apply: async () => {
        writeAttempts++;
        throw new UnavailableError('FerretDB is down');
      },
    };
    const crashed = await startLedger(groupId, 10, down);
    await waitFor(() => writeAttempts >= 3, { what: 'rounds that claimed and could not write' });
    await stop(crashed);
    // The partition in hand claimed its events (the others wait behind its retries).
    expect((await redis.keys(`${claimPrefix}${account}-c*`)).length).toBeGreaterThan(0);
    expect(await accountCounters(account)).toEqual({});
    expect(await committed(kafka, groupId)).toEqual(start);

    const restarted = await startLedger(groupId, 10);
    await waitCommittedTo(groupId, end);
    await stop(restarted);
    expect(await accountCounters(account)).toMatchObject({ lookups: 120, requests: 60 });
  });

  it('moves poison records to usage.lookup.v1.dlq with the reason and goes on counting', async () => {
    const groupId = uniqueName('stats-ledger');
    const start = await endOffsets(kafka);
    await setGroupOffsets(kafka, groupId, start);
    const account = uniqueName('acct');
    const key = `${account}-key`;
    const now = new Date();
    const headers = (id: string) => ({
      ce_specversion: '1.0',
      ce_id: id,
      ce_type: topic.eventType,
      ce_source: 'bff-en',
      ce_time: now.toISOString(),
    });
    // Not a UsageEvent at all.
    await producer.sendRaw(topic.name, [
      { key, value: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), headers: headers(`${account}-garbage`) },
    ]);
    // A UsageEvent without meta.id (the producer wrapper would fill one in: raw bytes).
    const noId = usage(account, key, '', now);
    await producer.sendRaw(topic.name, [
      { key, value: Buffer.from(UsageEvent.encode(noId).finish()), headers: headers(`${account}-noid`) },
    ]);
    // An unspecified channel.
    await producer.send(
      topic,
      { ...usage(account, key, `${account}-nochannel`, now), channel: UsageChannel.USAGE_CHANNEL_UNSPECIFIED },
      { key },
    );
    await producer.send(topic, usage(account, key, `${account}-good`, now, 5), { key });
    const end = await endOffsets(kafka);

    const consumer = await startLedger(groupId, 50);
    await waitCommittedTo(groupId, end);
    await stop(consumer);
    expect(await accountCounters(account)).toMatchObject({ lookups: 5, requests: 1 });

    const dlq = await TopicRecorder.start(rawTopic(dlqTopicName(topic.name)), { kafka });
    try {
      const mine = await waitFor(
        () => {
          const records = dlq.records.filter((r) => r.headers['dlq_consumer_group'] === groupId);
          return records.length >= 3 ? records : undefined;
        },
        { what: 'three poison records in usage.lookup.v1.dlq' },
      );
      const reasons = new Map(mine.map((r) => [r.headers['ce_id'], r.headers['dlq_error']]));
      expect(reasons.get(`${account}-garbage`)).toMatch(/not a valid ipdata.events.v1.UsageEvent/);
      expect(reasons.get(`${account}-noid`)).toMatch(/meta\.id/);
      expect(reasons.get(`${account}-nochannel`)).toMatch(/channel 0/);
      expect(mine.every((r) => r.headers['dlq_source_topic'] === topic.name)).toBe(true);
    } finally {
      await dlq.stop();
    }
  });

  it('counts a late public API event in its own hour and carries it into the open hour in the same document', async () => {
    const groupId = uniqueName('stats-ledger');
    const start = await endOffsets(kafka);
    await setGroupOffsets(kafka, groupId, start);
    const account = uniqueName('acct');
    const key = `${account}-key`;
    const openFrom = gate.openFrom;
    const lateHour = new Date(openFrom.getTime() - 3 * 3_600_000);
    await producer.sendMany(topic, [
      { event: usage(account, key, `${account}-late1`, new Date(lateHour.getTime() + 60_000), 3), key },
      { event: usage(account, key, `${account}-late2`, new Date(lateHour.getTime() + 120_000), 4), key },
      { event: usage(account, key, `${account}-ontime`, new Date(openFrom.getTime() + 1_000), 2), key },
    ]);
    const end = await endOffsets(kafka);
    const consumer = await startLedger(groupId, 10);
    await waitCommittedTo(groupId, end);
    await stop(consumer);

    const hours = await reader.find({ equals: { accountId: account, g: 'h' }, ...ALL_TIME });
    const late = hours.find((doc) => doc.periodStart.getTime() === lateHour.getTime());
    const open = hours.find((doc) => doc.periodStart.getTime() === openFrom.getTime());
    expect(late?.c).toMatchObject({ lookups: 7, requests: 2, [carriedKey(openFrom)]: 7 });
    expect(open?.c['lookups']).toBe(2);
    expect(Object.keys(open?.c ?? {}).some((name) => name.startsWith('cr:'))).toBe(false);
    // Day documents never carry.
    const days = await reader.find({ equals: { accountId: account, g: 'd' }, ...ALL_TIME });
    expect(days.every((doc) => Object.keys(doc.c).every((name) => !name.startsWith('cr:')))).toBe(true);
  });
});
