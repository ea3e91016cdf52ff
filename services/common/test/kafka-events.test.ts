import { UsageChannel, UsageEvent, UsageResult } from '@ipdata/proto/events/v1/usage';
import { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventConsumer,
  EventProducer,
  RedisEventDeduplicator,
  createKafka,
  dlqTopicName,
  ensureTopics,
  topicSpecs,
  type ConsumedEvent,
  type TopicDefinition,
} from '@ipdata/common';
import { TopicRecorder, rawTopic, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

function usageTopic(): TopicDefinition<UsageEvent> {
  return usageTestTopic(uniqueName('test.usage'));
}

function usage(ip: string, id?: string): UsageEvent {
  return UsageEvent.fromPartial({
    ...(id === undefined ? {} : { meta: { id } }),
    channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    apiKeyId: 'key-1',
    ip,
    countryCode: 'DE',
    endpoint: '/v1/geolocation',
    result: UsageResult.USAGE_RESULT_FOUND,
    latencyMs: 3,
    count: 1,
  });
}

async function committedOffset(kafka: Kafka, groupId: string, topic: string): Promise<string | undefined> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return entry?.partitions[0]?.offset;
  } finally {
    await admin.disconnect();
  }
}

describe('Kafka producer and consumer wrapper (real broker)', () => {
  let kafka: Kafka;
  let producer: EventProducer;
  let redis: Redis;
  const consumers: EventConsumer<UsageEvent>[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'common-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'test-producer' }, logger);
    await producer.start();
    redis = new Redis(stack.redisUrl);
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.shutdown()));
    await producer.shutdown();
    redis.disconnect();
  });

  async function startConsumer(
    topic: TopicDefinition<UsageEvent>,
    handler: (event: ConsumedEvent<UsageEvent>) => Promise<void>,
    extra: { dedup?: boolean; onDuplicate?: (event: ConsumedEvent<UsageEvent>) => void } = {},
  ) {
    const groupId = uniqueName('test-group');
    const consumer = EventConsumer.fromConfig(
      {
        kafka,
        groupId,
        topic,
        handler,
        dlqProducer: producer,
        maxAttempts: 3,
        initialRetryDelayMs: 10,
        maxRetryDelayMs: 50,
        ...(extra.dedup ? { deduplicator: new RedisEventDeduplicator(redis, { namespace: groupId }) } : {}),
        ...(extra.onDuplicate ? { onDuplicate: extra.onDuplicate } : {}),
      },
      logger,
    );
    consumers.push(consumer);
    await consumer.start();
    return { consumer, groupId };
  }

  it('delivers a protobuf event with CloudEvents binary headers and commits after handling', async () => {
    const topic = usageTopic();
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const received: ConsumedEvent<UsageEvent>[] = [];
    const { groupId } = await startConsumer(topic, async (event) => {
      received.push(event);
    });

    const sentAt = Date.now();
    const id = await producer.send(topic, usage('203.0.113.7'), { key: 'key-1' });

    await waitFor(() => received.length === 1, { what: 'event delivery' });
    const [event] = received;
    expect(event?.event).toMatchObject({ ip: '203.0.113.7', apiKeyId: 'key-1', countryCode: 'DE', count: 1 });
    expect(event?.event.meta).toMatchObject({ id, source: 'test-producer' });
    expect(event?.key).toBe('key-1');
    expect(event?.headers).toMatchObject({
      ce_specversion: '1.0',
      ce_id: id,
      ce_type: 'ipdata.events.v1.UsageEvent',
      ce_source: 'test-producer',
      'content-type': 'application/protobuf',
    });
    expect(Date.parse(event?.headers['ce_time'] ?? '')).toBeGreaterThanOrEqual(sentAt - 1000);
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '1', { what: 'offset commit' });
  });

  it('skips a re-delivered event id and handles it once', async () => {
    const topic = usageTopic();
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const handled: string[] = [];
    const duplicates: string[] = [];
    const { groupId } = await startConsumer(topic, async (event) => void handled.push(event.id), {
      dedup: true,
      onDuplicate: (event) => duplicates.push(event.id),
    });

    await producer.send(topic, usage('198.51.100.1', 'req-42'), { key: 'key-1' });
    await producer.send(topic, usage('198.51.100.1', 'req-42'), { key: 'key-1' });
    await producer.send(topic, usage('198.51.100.2', 'req-43'), { key: 'key-1' });

    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '3', { what: 'all three committed' });
    expect(handled).toEqual(['req-42', 'req-43']);
    expect(duplicates).toEqual(['req-42']);
  });

  it('moves poison records to the DLQ with the error in headers and goes on with the next record', async () => {
    const topic = usageTopic();
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const handled: string[] = [];
    let attemptsOnBadEvent = 0;
    const { groupId } = await startConsumer(topic, async (event) => {
      if (event.event.ip === '192.0.2.66') {
        attemptsOnBadEvent++;
        throw new Error('cannot resolve province for 192.0.2.66');
      }
      handled.push(event.event.ip);
    });

    // A record that is not a valid event at all: garbage bytes under the right type header.
    await producer.sendRaw(topic.name, [
      {
        key: 'key-1',
        value: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]),
        headers: {
          ce_specversion: '1.0',
          ce_id: 'garbage-1',
          ce_type: topic.eventType,
          ce_source: 'x',
          ce_time: new Date().toISOString(),
        },
      },
    ]);
    const badId = await producer.send(topic, usage('192.0.2.66'), { key: 'key-1' });
    await producer.send(topic, usage('192.0.2.1'), { key: 'key-1' });

    await waitFor(() => handled.includes('192.0.2.1'), { what: 'good record after poison' });
    expect(attemptsOnBadEvent).toBe(3);
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '3', { what: 'commit past poison' });

    const dlq = await TopicRecorder.start(rawTopic(dlqTopicName(topic.name)), { kafka });
    const dead = await dlq.waitForCount(2).finally(() => dlq.stop());
    expect(dead).toHaveLength(2);
    const [undecodable, failing] = dead;
    expect(undecodable?.headers['dlq_error']).toMatch(/not a valid ipdata.events.v1.UsageEvent/);
    expect(undecodable?.headers['dlq_attempts']).toBe('0');
    expect(failing?.headers).toMatchObject({
      ce_id: badId,
      dlq_error: 'cannot resolve province for 192.0.2.66',
      dlq_error_type: 'Error',
      dlq_attempts: '3',
      dlq_source_topic: topic.name,
      dlq_source_offset: '1',
      dlq_consumer_group: groupId,
    });
    expect(UsageEvent.decode(failing?.event.value ?? new Uint8Array()).ip).toBe('192.0.2.66');
  });
});
