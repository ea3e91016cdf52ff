import { setTimeout as sleep } from 'node:timers/promises';
import { UsageChannel, UsageEvent, UsageResult } from '@ipdata/proto/events/v1/usage';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, createKafka, ensureTopics, topicEndOffsets, topicSpecs } from '@ipdata/common';
import { TopicRecorder, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { brokerControl } from '../../../scripts/test/broker-control.js';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

/** Past kafkajs' request timeout (30 s, createKafka keeps the default): requests in flight time out. */
const FREEZE_MS = 35_000;
/** One send every tick, each its own request (one record per batch, as an outbox relay sends). */
const TICK_MS = 5;
/** Sends waiting at most: a bound on what piles up while the broker is frozen. */
const MAX_IN_FLIGHT = 4_000;

function usage(id: string): UsageEvent {
  return UsageEvent.fromPartial({
    meta: { id },
    channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    apiKeyId: 'key-outage',
    ip: '192.0.2.1',
    countryCode: 'DE',
    endpoint: '/v1/geolocation',
    result: UsageResult.USAGE_RESULT_FOUND,
    latencyMs: 1,
    count: 1,
  });
}

/**
 * The outage that wedged kafkajs' idempotent producer (docs/adr/0002-kafka-client.md): a broker
 * frozen (SIGSTOP: sockets open, nothing answered) for longer than the request timeout. Clean
 * stops close the connections and never showed it. The test asserts what a caller relies on —
 * every send that resolved is on the topic — and nothing about which sends reject or when: that
 * depends on timers racing a loaded machine.
 */
describe('EventProducer through a frozen broker (real broker)', () => {
  const broker = brokerControl();
  let kafka: Kafka;
  let producer: EventProducer;

  beforeAll(async () => {
    kafka = createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: uniqueName('outage-test') }, logger);
    // sendTimeoutMs past the freeze: a send that waited through it resolves or rejects on what
    // kafkajs answers, not on this timer (with the default 30 s the send kafkajs wrongly
    // acknowledged after a freeze had always been rejected by the timer first).
    producer = EventProducer.fromConfig({ kafka, source: 'outage-test', sendTimeoutMs: 60_000 }, logger);
    await producer.start();
  });

  afterAll(async () => {
    broker?.thaw();
    await producer?.shutdown();
  });

  it.skipIf(broker === undefined)(
    `every send that resolved is on the topic after the broker froze for ${FREEZE_MS / 1000} s`,
    async () => {
      const topic = usageTestTopic(uniqueName('test.outage'));
      await ensureTopics(kafka, topicSpecs([topic]), logger);
      const prefix = uniqueName('outage');
      const resolved: string[] = [];
      let rejected = 0;
      let started = 0;
      const inFlight = new Set<Promise<void>>();
      let sending = true;

      const pump = (async () => {
        while (sending) {
          if (inFlight.size < MAX_IN_FLIGHT) {
            const id = `${prefix}-${started++}`;
            const send = producer.send(topic, usage(id), { key: 'key-outage' }).then(
              () => void resolved.push(id),
              () => void rejected++,
            );
            inFlight.add(send);
            void send.finally(() => inFlight.delete(send));
          }
          await sleep(TICK_MS);
        }
      })();

      try {
        await waitFor(() => resolved.length >= 200, { timeoutMs: 30_000, what: '200 sends resolved before the freeze' });
        broker?.freeze();
        try {
          await sleep(FREEZE_MS);
        } finally {
          broker?.thaw();
        }
        const atThaw = resolved.length;
        // The producer recovers by itself; sending goes on until it has answered more after the thaw.
        await waitFor(() => resolved.length >= atThaw + 500, {
          timeoutMs: 45_000,
          what: '500 more sends resolved after the thaw',
        });
      } finally {
        sending = false;
        await pump;
        // Bounded: a send still out after this is neither resolved nor asserted on.
        await Promise.race([Promise.allSettled([...inFlight]), sleep(20_000)]);
      }

      const ends = await topicEndOffsets(kafka, topic.name);
      const onTopic = ends.reduce((sum, end) => sum + Number(end.high) - Number(end.low), 0);
      const recorder = await TopicRecorder.start(topic, { kafka });
      try {
        await recorder.waitForCount(onTopic, { timeoutMs: 30_000 });
        const counts = new Map<string, number>();
        for (const event of recorder.events) {
          const id = event.meta?.id ?? '';
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        const missing = resolved.filter((id) => !counts.has(id));
        const duplicates = [...counts.values()].filter((count) => count > 1).length;
        process.stdout.write(
          `frozen broker: ${started} sent, ${resolved.length} resolved, ${rejected} rejected, ` +
            `${onTopic} records on the topic, ${duplicates} ids twice or more, ${missing.length} resolved but missing\n`,
        );
        expect(missing.slice(0, 20)).toEqual([]);
        expect(missing.length).toBe(0);
      } finally {
        await recorder.stop();
      }
    },
    110_000,
  );
});
