/**
 * Warms the stack's Kafka broker up before a benchmark measures anything that produces.
 *
 * Why: the ledger sends ~5 batches a second, so the broker's per-request code (produce
 * handling, validation, the append) runs a few hundred times a minute and its JIT compiles it
 * only minutes after a broker start. Until then the broker ran it interpreted: in the first
 * `public-api.bench.ts --only ip` run after `make stack-up`, the broker's CPU per
 * request was 31 µs with the accounting on and 2 µs with it off; in the next run, 6 µs and 2 µs.
 * The accounting paid for the broker's start.
 *
 * How long: until C2, the JVM's optimising JIT, has compiled the produce path. From a fresh
 * start on this machine (sends of 20 records with CloudEvents headers), the
 * broker's CPU per send fell from ~4,200 µs to 600–1,100 µs within ~6,000 sends (C1), and to a
 * flat ~300 µs only after ~12,000 (C2, ~15 s). So 15,000 sends by default, in rounds, each
 * round's broker CPU per send reported: the first and the last say whether it was already warm.
 * Sends go one in flight, as the ledger sends, to a scratch topic deleted afterwards.
 */
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { cloudEventHeaders, ensureTopics } from '@ipdata/common';
import { deleteScratchTopic } from './bench-support.js';
import { groupCpuReader } from './process-cpu.js';

const TOPIC = 'bench.broker-warm-up';
const SENDS_PER_ROUND = 1_000;
const RECORDS_PER_SEND = 20;

export interface BrokerWarmUp {
  sends: number;
  seconds: number;
  /** The broker's CPU per send (µs) in the first and the last round; undefined off Linux. */
  firstRoundUsPerSend: number | undefined;
  lastRoundUsPerSend: number | undefined;
}

export async function warmBroker(kafka: Kafka, logger: Logger, sends = 15_000): Promise<BrokerWarmUp> {
  const startedAt = performance.now();
  const brokerCpuMs = groupCpuReader('kafka');
  await ensureTopics(kafka, [{ name: TOPIC, partitions: 12, retentionMs: 600_000 }], logger);
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false, maxInFlightRequests: 1 });
  await producer.connect();
  const perRound: number[] = [];
  let sent = 0;
  try {
    const value = Buffer.alloc(200, 1);
    while (sent < sends) {
      const before = brokerCpuMs();
      const roundEnd = Math.min(sends, sent + SENDS_PER_ROUND);
      const roundStart = sent;
      for (; sent < roundEnd; sent++) {
        const messages = Array.from({ length: RECORDS_PER_SEND }, (_, i) => ({
          key: `key-${(sent + i) % 150}`,
          value,
          headers: cloudEventHeaders({
            id: `${sent}-${i}`,
            type: 'bench.warm-up',
            source: 'bench',
            time: '2026-01-01T00:00:00.000Z',
          }),
        }));
        await producer.send({ topic: TOPIC, acks: -1, messages });
      }
      const after = brokerCpuMs();
      if (before !== undefined && after !== undefined) perRound.push(((after - before) * 1000) / (sent - roundStart));
    }
  } finally {
    await producer.disconnect();
    await deleteScratchTopic(kafka, TOPIC);
  }
  return {
    sends: sent,
    seconds: Math.round((performance.now() - startedAt) / 100) / 10,
    firstRoundUsPerSend: perRound.length > 0 ? Math.round(perRound[0] as number) : undefined,
    lastRoundUsPerSend: perRound.length > 0 ? Math.round(perRound.at(-1) as number) : undefined,
  };
}
