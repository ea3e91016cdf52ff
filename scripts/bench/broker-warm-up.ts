/**
 * Warms the stack's Kafka broker up before a benchmark measures anything that produces.
 *
 * Why: the ledger sends ~5 batches a second, so the broker's per-request code (produce
 * handling, validation, the append) runs a few hundred times a minute and its JIT compiles it
 * only minutes after a broker start. Until then the broker ran it interpreted: in the first
 * `public-api.bench.ts --only ip` run after `make stack-up` (session 33), the broker's CPU per
 * request was 31 µs with the accounting on and 2 µs with it off; in the next run, 6 µs and 2 µs.
 * The accounting paid for the broker's start. Here a few thousand small produce requests, one in
 * flight as the ledger sends, run that code past its compile thresholds on a scratch topic,
 * deleted afterwards.
 */
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { ensureTopics } from '@ipdata/common';

const TOPIC = 'bench.broker-warm-up';

export async function warmBroker(kafka: Kafka, logger: Logger, sends = 3_000): Promise<{ sends: number; seconds: number }> {
  const startedAt = performance.now();
  await ensureTopics(kafka, [{ name: TOPIC, partitions: 12, retentionMs: 600_000 }], logger);
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const value = Buffer.alloc(200, 1);
    for (let send = 0; send < sends; send++) {
      const messages = Array.from({ length: 20 }, (_, i) => ({
        key: `key-${(send + i) % 150}`,
        value,
        headers: { ce_id: `${send}-${i}` },
      }));
      await producer.send({ topic: TOPIC, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [TOPIC] }).catch(() => undefined);
    await admin.disconnect();
  }
  return { sends, seconds: Math.round((performance.now() - startedAt) / 100) / 10 };
}
