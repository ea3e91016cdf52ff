/**
 * The replay's reader of the ledger against the real broker: start offsets per partition (by
 * time, earliest), and reading exactly the records in [start, target) per partition, in order,
 * across two readUpTo calls (catch-up, then the last stretch), with nothing read twice.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, TOPICS, createKafka, ensureTopics, topicSpecs, type TopicDefinition } from '@ipdata/common';
import { seededRandom, stackAddresses, uniqueName } from '@ipdata/common/testing';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { KafkaLedgerReplaySource } from '../src/adapters/kafka/ledger-replay.source.js';
import { plannedEvents } from './fixtures/usage-load.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

describe('KafkaLedgerReplaySource', () => {
  const kafka = createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: 'replay-source-test' }, logger);
  const topic: TopicDefinition<UsageEvent> = { ...TOPICS.usageLookup, name: uniqueName('test.replay-ledger'), partitions: 3 };
  const producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
  const source = new KafkaLedgerReplaySource({ kafka, topic, groupPrefix: uniqueName('replay-test'), chunkSize: 40 }, logger);
  const prefix = uniqueName('rs');
  let secondHour = new Date();

  beforeAll(async () => {
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    await producer.start();
    // Record timestamps are the events' times (EventProducer): the second lot is an hour later.
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const random = seededRandom(3);
    await producer.sendMany(
      topic,
      plannedEvents({ prefix, accounts: 5, keysPerAccount: 2, hours: [new Date(hour - 7_200_000)], random }, 300),
    );
    secondHour = new Date(hour - 3_600_000);
    await producer.sendMany(
      topic,
      plannedEvents({ prefix, accounts: 5, keysPerAccount: 2, hours: [secondHour], random }, 60, 300),
    );
  });

  afterAll(async () => {
    await producer.shutdown();
  });

  it('finds start offsets by time and reads exactly [start, target) per partition across two stretches', async () => {
    const earliest = await source.earliestOffsets();
    expect([...earliest.keys()].sort()).toEqual([0, 1, 2]);
    expect([...earliest.values()]).toEqual([0, 0, 0]);
    const atSecond = await source.offsetsAtTime(secondHour);
    const end = await source.offsetsAtTime(new Date(Date.now() + 3_600_000));
    const total = [...end.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(360);
    expect([...atSecond.values()].reduce((a, b) => a + b, 0)).toBe(300);

    const start = new Map([...end].map(([partition, high]) => [partition, Math.min(5, high)]));
    const seen = new Map<number, number[]>();
    const reader = await source.open(uniqueName('r'), start, async (batch) => {
      expect(batch.events.length).toBeLessThanOrEqual(40);
      const offsets = seen.get(batch.partition) ?? [];
      offsets.push(...batch.events.map((event) => Number(event.offset)));
      seen.set(batch.partition, offsets);
      return batch.events.length;
    });
    try {
      await reader.readUpTo(atSecond);
      for (const [partition, target] of atSecond) {
        const from = start.get(partition)!;
        expect(seen.get(partition) ?? []).toEqual(Array.from({ length: Math.max(0, target - from) }, (_, i) => from + i));
      }
      await reader.readUpTo(end);
      for (const [partition, target] of end) {
        const from = start.get(partition)!;
        expect(seen.get(partition) ?? []).toEqual(Array.from({ length: target - from }, (_, i) => from + i));
        expect(reader.positions().get(partition)).toBe(target);
      }
      expect(reader.recordsRead()).toBe(total - [...start.values()].reduce((a, b) => a + b, 0));
    } finally {
      await reader.close();
    }
  }, 60_000);
});
