/**
 * What one usage event costs metering in CPU, beside kafkajs' own records in the same run: the
 * baseline sends each event as kafkajs takes it (a message object: key, value from the generated
 * UsageEvent encoder, CloudEvents headers), `record` is the request side (UsageLedger.record into
 * the Redis stream: the hand-written encoder, one XADD per turn's group), `relay` the relay's side
 * (a UsageRelay reading the stored groups and sending them through UsageKafkaSink; its CPU
 * while it waits on the stream is in it). CPU is this process's user+system time
 * (process.cpuUsage) per event; Redis' and the broker's own CPU are not in it. Prints one JSON
 * line per run and a summary with medians and ratios (baseline / ours: above 1 = cheaper than the
 * baseline); never asserts.
 *
 *   make stack-up
 *   node --conditions=source --import tsx scripts/bench/usage-ledger.bench.ts [--events 50000] [--turn 200] [--runs 3]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import type { Message } from 'kafkajs';
import { pino } from 'pino';
import { Murmur2Partitioner, TOPICS, cloudEventHeaders, createKafka, defineTopic, ensureTopics } from '@ipdata/common';
import {
  RedisUsageStream,
  UsageChannel,
  UsageKafkaSink,
  UsageLedger,
  UsageRelay,
  UsageResult,
  toUsageEvent,
  usageEventKey,
  type UsageRecord,
} from '@ipdata/metering';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { deleteScratchTopic, emit, median } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '50000' },
    turn: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
  },
});
const events = Math.max(1, Number(args.events));
/** Records per event-loop turn: what one XADD carries (bff-en under load: a few hundred). */
const turn = Math.max(1, Number(args.turn));
const runs = Math.max(1, Number(args.runs));
const SEND = 2_000; // the relay's maxSendEvents
const brokers = (process.env['KAFKA_BROKERS'] ?? `127.0.0.1:${process.env['KAFKA_PORT'] ?? 9092}`).split(',');
const redisUrl = process.env['REDIS_URL'] ?? `redis://127.0.0.1:${process.env['REDIS_PORT'] ?? 6379}`;
const logger = pino({ level: 'warn' });
const kafka = createKafka({ brokers, clientId: 'bench-usage-ledger' }, logger);
const topic = defineTopic({ ...TOPICS.usageLookup, name: `bench.usage-ledger.${process.pid}` });

function records(count: number): UsageRecord[] {
  const start = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    requestId: `01JBENCH${String(i).padStart(18, '0')}`,
    channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    accountId: `acct_${String(i % 50).padStart(20, '0')}`,
    apiKeyId: `key_${String(i % 150).padStart(20, '0')}`,
    visitorId: '',
    endpoint: '/v1/ip/{ip}',
    ip: `${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}.7`,
    ipVersion: 4,
    countryCode: 'US',
    province: '',
    result: UsageResult.USAGE_RESULT_FOUND,
    httpStatus: 200,
    latencyMs: 3,
    count: 1,
    freeCount: 0,
    time: new Date(start + i),
  }));
}

async function cpuPerEvent(work: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / events;
}

const producer = kafka.producer({ idempotent: false, maxInFlightRequests: 1, createPartitioner: Murmur2Partitioner });
/** kafkajs' own records: message objects built from the generated encoder, sent SEND at a time. */
async function baseline(all: UsageRecord[]): Promise<void> {
  for (let at = 0; at < all.length; at += SEND) {
    const messages: Message[] = all.slice(at, at + SEND).map((record) => ({
      key: usageEventKey({ apiKeyId: record.apiKeyId, visitorId: record.visitorId, accountId: record.accountId }),
      value: Buffer.from(UsageEvent.encode(toUsageEvent(record, 'bff-en')).finish()),
      headers: cloudEventHeaders({
        id: record.requestId,
        type: topic.eventType,
        source: 'bff-en',
        time: record.time.toISOString(),
      }),
      timestamp: String(record.time.getTime()),
    }));
    await producer.send({ topic: topic.name, acks: -1, messages });
  }
}

const redis = new Redis(redisUrl);
const streamKey = `bench:usage:${process.pid}`;
const stream = new RedisUsageStream(redis, redis, { key: streamKey });
const ledger = new UsageLedger({ store: stream, source: 'bff-en', maxBatch: turn }, logger);
// A stream no relay reads: the record side measured alone.
const solo = new UsageLedger(
  { store: new RedisUsageStream(redis, redis, { key: `${streamKey}:solo` }), source: 'bff-en', maxBatch: turn },
  logger,
);
/** The request side: `turn` records per event-loop turn, each awaited as a request would. */
async function record(all: UsageRecord[], into = ledger): Promise<void> {
  for (let at = 0; at < all.length; at += turn) {
    await Promise.all(all.slice(at, at + turn).map((one) => into.record(one)));
  }
}

const sink = new UsageKafkaSink({ kafka, topic }, logger);
const usageRelay = new UsageRelay({ stream, sink, consumer: 'bench', blockMs: 50 }, logger);
/** The relay's side: waits until the running UsageRelay has sent `target` events since it started. */
async function relayedUpTo(target: number): Promise<void> {
  while (usageRelay.stats().relayed < target) await sleep(5);
}

await ensureTopics(kafka, [{ name: topic.name, partitions: topic.partitions, retentionMs: 3_600_000 }], logger);
await producer.connect();
await sink.start();
try {
  // Warm-up: connections, metadata and the JIT of every path.
  const warm = records(Math.min(events, 10_000));
  await baseline(warm);
  await usageRelay.start();
  await record(warm);
  await relayedUpTo(warm.length);
  const rows: Array<Record<string, number>> = [];
  for (let run = 1; run <= runs; run++) {
    const all = records(events); // built before the clock starts: only the sending is measured
    const base = await cpuPerEvent(() => baseline(all));
    // The relay sends while records arrive, as in a service: both sides in one measurement; the
    // record side alone into a stream no relay reads, and the relay's share is the difference.
    const before = usageRelay.stats().relayed;
    const both = await cpuPerEvent(async () => {
      await record(all);
      await relayedUpTo(before + events);
    });
    const recorded = await cpuPerEvent(() => record(all, solo));
    await redis.del(`${streamKey}:solo`);
    const relayedCost = both - recorded;
    const row = {
      kafkajs_records_cpu_us_per_event: +base.toFixed(2),
      record_cpu_us_per_event: +recorded.toFixed(2),
      relay_cpu_us_per_event: +relayedCost.toFixed(2),
      record_ratio: +(base / recorded).toFixed(2),
      relay_ratio: +(base / relayedCost).toFixed(2),
    };
    rows.push(row);
    emit({ bench: 'usage_ledger', run, events, turn, ...row });
  }
  const summary: Record<string, unknown> = { bench: 'summary', runs, events, turn };
  for (const key of Object.keys(rows[0] ?? {})) summary[key] = median(rows.map((row) => row[key] as number));
  emit(summary);
} finally {
  await usageRelay.shutdown();
  await sink.shutdown();
  await producer.disconnect();
  await redis.del(streamKey, `${streamKey}:solo`);
  redis.disconnect();
  await deleteScratchTopic(kafka, topic.name);
}
