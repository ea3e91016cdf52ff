import { setTimeout as sleep } from 'node:timers/promises';
import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventConsumer,
  EventProducer,
  UnavailableError,
  createKafka,
  dlqTopicName,
  ensureTopics,
  topicSpecs,
  type BatchHandler,
  type TopicDefinition,
} from '@ipdata/common';
import { TopicRecorder, rawTopic, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();

function usage(ip: string): UsageEvent {
  return UsageEvent.fromPartial({ channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API, apiKeyId: 'key-1', ip, count: 1 });
}

async function committedOffset(kafka: Kafka, groupId: string, topic: string): Promise<string | undefined> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const offset = entry?.partitions[0]?.offset;
    return offset === '-1' ? undefined : offset;
  } finally {
    await admin.disconnect();
  }
}

describe('Kafka consumer wrapper in batch mode (real broker)', () => {
  let kafka: Kafka;
  let producer: EventProducer;
  const consumers: EventConsumer<UsageEvent>[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'common-batch-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'test-producer' }, logger);
    await producer.start();
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.shutdown()));
    await producer.shutdown();
  });

  async function newTopic(): Promise<TopicDefinition<UsageEvent>> {
    const topic = usageTestTopic(uniqueName('test.usage-batch'));
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    return topic;
  }

  async function sendIps(topic: TopicDefinition<UsageEvent>, ips: string[]): Promise<void> {
    // One send call: the records land in one fetch, so chunking is visible.
    await producer.sendMany(
      topic,
      ips.map((ip) => ({ event: usage(ip), key: 'key-1' })),
    );
  }

  async function startConsumer(topic: TopicDefinition<UsageEvent>, batchHandler: BatchHandler<UsageEvent>, maxBatchEvents = 10) {
    const groupId = uniqueName('test-batch-group');
    const consumer = EventConsumer.fromConfig(
      {
        kafka,
        groupId,
        topic,
        batchHandler,
        maxBatchEvents,
        dlqProducer: producer,
        maxAttempts: 2,
        initialRetryDelayMs: 10,
        maxRetryDelayMs: 50,
      },
      logger,
    );
    consumers.push(consumer);
    await consumer.start();
    return { consumer, groupId };
  }

  it('hands over chunks of at most maxBatchEvents records of one partition, in offset order, and commits them', async () => {
    const topic = await newTopic();
    const ips = Array.from({ length: 25 }, (_, i) => `10.0.0.${i}`);
    await sendIps(topic, ips);
    const chunks: string[][] = [];
    const { groupId } = await startConsumer(topic, async (batch) => {
      expect(batch.topic).toBe(topic.name);
      expect(batch.partition).toBe(0);
      chunks.push(batch.events.map((e) => e.event.ip));
      await batch.heartbeat();
      return {};
    });
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '25', { what: 'commit of 25' });
    expect(chunks.flat()).toEqual(ips);
    expect(Math.max(...chunks.map((c) => c.length))).toBe(10);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
  });

  it('moves undecodable records and reported poison to the DLQ with the error, and goes on', async () => {
    const topic = await newTopic();
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
    await sendIps(topic, ['192.0.2.1', '192.0.2.66', '192.0.2.3']);
    const seen: string[] = [];
    const { groupId } = await startConsumer(topic, async (batch) => {
      seen.push(...batch.events.map((e) => e.event.ip));
      const bad = batch.events.filter((e) => e.event.ip === '192.0.2.66');
      return { poison: bad.map((event) => ({ event, error: new Error('endpoint is empty') })) };
    });
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '4', { what: 'commit past poison' });
    // The undecodable record never reached the handler.
    expect(seen).toEqual(['192.0.2.1', '192.0.2.66', '192.0.2.3']);

    const dlq = await TopicRecorder.start(rawTopic(dlqTopicName(topic.name)), { kafka });
    const dead = await dlq.waitForCount(2).finally(() => dlq.stop());
    expect(dead.map((d) => d.headers['dlq_source_offset'])).toEqual(['0', '2']);
    expect(dead[0]?.headers['dlq_error']).toMatch(/not a valid ipdata.events.v1.UsageEvent/);
    expect(dead[1]?.headers).toMatchObject({
      dlq_error: 'endpoint is empty',
      dlq_consumer_group: groupId,
      dlq_source_topic: topic.name,
    });
    expect(UsageEvent.decode(dead[1]?.event.value ?? new Uint8Array()).ip).toBe('192.0.2.66');
  });

  it('retries a failing chunk, then handles it one record at a time so only the bad record is dead-lettered', async () => {
    const topic = await newTopic();
    await sendIps(topic, ['198.51.100.1', '198.51.100.2', '198.51.100.3']);
    const handled: string[] = [];
    const { groupId } = await startConsumer(topic, async (batch) => {
      if (batch.events.some((e) => e.event.ip === '198.51.100.2')) throw new Error('cannot handle 198.51.100.2');
      handled.push(...batch.events.map((e) => e.event.ip));
      return {};
    });
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '3', {
      what: 'commit past the bad record',
    });
    expect(handled).toEqual(['198.51.100.1', '198.51.100.3']);
    const dlq = await TopicRecorder.start(rawTopic(dlqTopicName(topic.name)), { kafka });
    const dead = await dlq.waitForCount(1).finally(() => dlq.stop());
    expect(dead[0]?.headers).toMatchObject({
      dlq_error: 'cannot handle 198.51.100.2',
      dlq_source_offset: '1',
      dlq_attempts: '2',
    });
  });

  it('commits a chunk only after its handler resolved (transient failures are retried, not dead-lettered)', async () => {
    const topic = await newTopic();
    await sendIps(topic, ['203.0.113.1', '203.0.113.2']);
    let failures = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { groupId } = await startConsumer(topic, async () => {
      if (failures < 4) {
        failures++;
        throw new UnavailableError('mongo is down');
      }
      await released;
      return { poison: [] };
    });
    await waitFor(() => failures === 4, { what: 'transient failures' });
    await sleep(300);
    expect(await committedOffset(kafka, groupId, topic.name)).toBeUndefined();
    release();
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '2', { what: 'commit after success' });
  });

  it('pause() waits for the chunk in progress and stops handling until resume()', async () => {
    const topic = await newTopic();
    await sendIps(topic, ['172.16.0.1', '172.16.0.2']);
    const handled: string[] = [];
    let slow = false;
    let slowStarted = false;
    const { consumer, groupId } = await startConsumer(topic, async (batch) => {
      if (slow) {
        slowStarted = true;
        await sleep(700);
      }
      handled.push(...batch.events.map((e) => e.event.ip));
      return {};
    });
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '2', { what: 'first records' });

    slow = true;
    await sendIps(topic, ['172.16.0.3']);
    await waitFor(() => slowStarted, { what: 'slow chunk started' });
    await consumer.pause();
    // pause() resolved only after the chunk in progress was handled and committed.
    expect(handled).toEqual(['172.16.0.1', '172.16.0.2', '172.16.0.3']);
    expect(await committedOffset(kafka, groupId, topic.name)).toBe('3');

    slow = false;
    await sendIps(topic, ['172.16.0.4', '172.16.0.5']);
    await sleep(1500);
    expect(handled).toHaveLength(3);
    expect(await committedOffset(kafka, groupId, topic.name)).toBe('3');

    consumer.resume();
    await waitFor(async () => (await committedOffset(kafka, groupId, topic.name)) === '5', { what: 'records after resume' });
    expect(handled).toEqual(['172.16.0.1', '172.16.0.2', '172.16.0.3', '172.16.0.4', '172.16.0.5']);
  });
});
