import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: 'silent' });
const stack = stackAddresses();
const fixture = fileURLToPath(new URL('./fixtures/crashing-consumer.ts', import.meta.url));

function startConsumerProcess(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
    env: { ...process.env, KAFKA_BROKERS: stack.kafkaBrokers.join(','), REDIS_URL: stack.redisUrl, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

describe('consumer killed before its offset commit', () => {
  const topicName = uniqueName('test.crash');
  const groupId = uniqueName('crash-group');
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'crash-test' }, logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'crash-test' }, logger);
  const redis = new Redis(stack.redisUrl);
  const topic = usageTestTopic(topicName);

  beforeAll(async () => {
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    await producer.start();
  });

  afterAll(async () => {
    await producer.shutdown();
    redis.disconnect();
  });

  it('gets the record again after restart and applies its effect once', async () => {
    const first = startConsumerProcess({ TOPIC: topicName, GROUP_ID: groupId, CRASH_BEFORE_COMMIT: '1' });
    const firstExit = once(first, 'exit');
    await waitFor(async () => (await redis.exists(`${groupId}:joined:${first.pid}`)) === 1, {
      timeoutMs: 40_000,
      what: 'first consumer joined',
    });

    const eventId = await producer.send(topic, UsageEvent.fromPartial({ ip: '203.0.113.9', count: 1 }), { key: 'key-1' });
    const [, signal] = (await firstExit) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    expect(await redis.get(`${groupId}:effects:${eventId}`)).toBe('1');

    const admin = kafka.admin();
    await admin.connect();
    const [beforeRestart] = await admin.fetchOffsets({ groupId, topics: [topicName] });
    expect(beforeRestart?.partitions[0]?.offset).toBe('-1');

    const second = startConsumerProcess({ TOPIC: topicName, GROUP_ID: groupId });
    try {
      await waitFor(async () => (await redis.get(`${groupId}:duplicates:${eventId}`)) === '1', {
        timeoutMs: 45_000,
        what: 're-delivery after restart',
      });
      await waitFor(
        async () => {
          const [entry] = await admin.fetchOffsets({ groupId, topics: [topicName] });
          return entry?.partitions[0]?.offset === '1';
        },
        { what: 'offset committed after restart' },
      );
      expect(await redis.get(`${groupId}:effects:${eventId}`)).toBe('1');
    } finally {
      await admin.disconnect();
      const secondExit = once(second, 'exit');
      second.kill('SIGTERM');
      const [code] = (await secondExit) as [number | null];
      expect(code).toBe(0);
    }
  }, 120_000);
});
