/**
 * stats consumer benchmark (issue 12): events per second from a pre-filled usage.lookup.v1 to the
 * rollups, with de-duplication on (the claims script runs for every record, as in production),
 * beside a raw kafkajs consume of the same records (fetch + protobuf decode, nothing written) as
 * the in-run baseline. Prints one JSON line per run and a summary line with medians and ratios;
 * never asserts. `--peak <events/s>` (bff-en's peak rate, e.g. the accepted requests/s of
 * `make bench-api`) adds the ratio stats / peak: how much room stats has at bff-en's peak.
 *
 *   make stack-up
 *   node --conditions=source --import tsx scripts/bench/stats-consumer.bench.ts [--events 200000] [--runs 3] [--peak 9000]
 *        [--accounts 20] [--hours 2]
 *
 * The events spread over --accounts accounts (3 keys each) and the last --hours hours: the number
 * of counter documents a round touches and the size of the collections follow from them. On
 * FerretDB 1.24 (the local stack) an update by _id scans its collection, so the rate falls as the
 * collections grow; MongoDB looks the documents up by index.
 *
 * Each run starts stats as a process from source with a consumer group, database and Redis
 * prefix of its own, so it reads the whole topic from the beginning; the rate is measured from its
 * first committed offset to the end (start-up and group join are reported apart). The topic keeps
 * what earlier runs wrote (it is the stack's ledger): every run reads all of it, the baseline too.
 * The stack is KAFKA_BROKERS / MONGO_URL / REDIS_URL, else the stack.sh ports (KAFKA_PORT, ...).
 * Each run's database and Redis keys are removed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { pino } from 'pino';
import { EventProducer, TOPICS, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { seededRandom } from '@ipdata/common/testing';
import { plannedEvents } from '../../services/stats/test/fixtures/usage-load.js';
import { emit, freePort, median, repoRoot } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '3' },
    accounts: { type: 'string', default: '20' },
    hours: { type: 'string', default: '2' },
    peak: { type: 'string' },
  },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const PEAK = args.peak === undefined ? undefined : Number(args.peak);
const ACCOUNTS = Number(args.accounts);
const HOURS = Number(args.hours);

const brokers = process.env['KAFKA_BROKERS'] ?? `127.0.0.1:${process.env['KAFKA_PORT'] ?? 9092}`;
const mongoUrl = process.env['MONGO_URL'] ?? `mongodb://127.0.0.1:${process.env['MONGO_PORT'] ?? 27017}/ipdata`;
const redisUrl = process.env['REDIS_URL'] ?? `redis://127.0.0.1:${process.env['REDIS_PORT'] ?? 6379}`;
const logger = pino({ level: 'silent' });
const kafka = createKafka({ brokers: brokers.split(','), clientId: 'stats-bench' }, logger);
const topic = TOPICS.usageLookup;
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
const stamp = Date.now().toString(36);

function databaseUrl(name: string): string {
  const url = new URL(mongoUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function prefill(): Promise<void> {
  await ensureTopics(kafka, topicSpecs([topic, TOPICS.usageRollup]), logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
  await producer.start();
  const now = Date.now();
  const hour = Math.floor(now / 3_600_000) * 3_600_000;
  const plan = {
    prefix: `bench-${stamp}`,
    accounts: ACCOUNTS,
    keysPerAccount: 3,
    hours: Array.from({ length: HOURS }, (_, back) => new Date(hour - back * 3_600_000)),
    random: seededRandom(12),
  };
  const started = Date.now();
  for (let sent = 0; sent < EVENTS; sent += 5_000) {
    const events = plannedEvents(plan, Math.min(5_000, EVENTS - sent), sent);
    for (let i = 0; i < events.length; i += 1_000) await producer.sendMany(topic, events.slice(i, i + 1_000));
  }
  await producer.shutdown();
  emit({ bench: 'prefill', events: EVENTS, accounts: ACCOUNTS, hours: HOURS, seconds: round((Date.now() - started) / 1000, 1) });
}

async function topicRecords(): Promise<{ total: number; high: Map<number, number> }> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic.name);
    return {
      total: offsets.reduce((sum, row) => sum + Number(row.high) - Number(row.low), 0),
      high: new Map(offsets.map((row) => [row.partition, Number(row.high)])),
    };
  } finally {
    await admin.disconnect();
  }
}

/** The raw baseline: fetch and decode every record of the topic, nothing else. */
async function rawConsume(total: number): Promise<Record<string, unknown>> {
  const consumer = kafka.consumer({ groupId: `stats-bench-raw-${stamp}-${Math.random().toString(36).slice(2)}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic.name], fromBeginning: true });
  let count = 0;
  let first = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        if (first === 0) first = performance.now();
        for (const message of batch.messages) if (message.value) UsageEvent.decode(message.value);
        count += batch.messages.length;
        last = performance.now();
        if (count >= total) resolve();
      },
    });
  });
  await done;
  await consumer.disconnect();
  return { bench: 'raw_kafkajs_consume', records: count, events_per_s: round(count / ((last - first) / 1000)) };
}

async function committedTotal(groupId: string, low: Map<number, number>): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
    return (offsets?.partitions ?? []).reduce(
      (sum, row) => sum + (Number(row.offset) >= 0 ? Number(row.offset) - (low.get(row.partition) ?? 0) : 0),
      0,
    );
  } finally {
    await admin.disconnect();
  }
}

async function lowOffsets(): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return new Map((await admin.fetchTopicOffsets(topic.name)).map((row) => [row.partition, Number(row.low)]));
  } finally {
    await admin.disconnect();
  }
}

/** One stats process from a fresh group: seconds to its first commit, then events/s to the end of the topic. */
async function statsRun(run: number, total: number): Promise<Record<string, unknown>> {
  const name = `stats-bench-${stamp}-${run}`;
  const env = {
    APP_ENV: 'test',
    LOG_LEVEL: 'warn',
    GRPC_TRANSPORT: 'insecure',
    GRPC_PORT: String(await freePort()),
    HEALTH_PORT: String(await freePort()),
    HEALTH_HOST: '127.0.0.1',
    KAFKA_BROKERS: brokers,
    KAFKA_GROUP_ID: name,
    MONGO_URL: databaseUrl(name.replace(/-/g, '_')),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `${name}:`,
    QUOTA_KEY_PREFIX: `${name}:quota:`,
  };
  const low = await lowOffsets();
  const spawned = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'services/stats/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  let first: { at: number; done: number } | undefined;
  let done = 0;
  let end = 0;
  try {
    const deadline = Date.now() + 15 * 60_000;
    while (done < total) {
      if (child.exitCode !== null) throw new Error(`stats exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`stats did not reach the end of the topic in 15 minutes (${done}/${total})`);
      await sleep(200);
      done = await committedTotal(name, low);
      if (first === undefined && done > 0) first = { at: performance.now(), done };
      end = performance.now();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    await cleanUp(name, env.MONGO_URL);
  }
  const measured = total - (first?.done ?? 0);
  return {
    bench: 'stats_consumer',
    run,
    records: total,
    start_to_first_commit_s: round(((first?.at ?? end) - spawned) / 1000, 1),
    events_per_s: round(measured / ((end - (first?.at ?? spawned)) / 1000)),
  };
}

async function cleanUp(name: string, url: string): Promise<void> {
  const connection = await mongoose.createConnection(url).asPromise();
  await connection.dropDatabase().catch(() => undefined);
  await connection.close();
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${name}:*`, 'COUNT', 5_000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}

await prefill();
const { total } = await topicRecords();
const summary: Record<string, unknown> = { bench: 'summary', records: total, runs: RUNS };
const raw: number[] = [];
const stats: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  const baseline = await rawConsume(total);
  emit({ ...baseline, run });
  raw.push(baseline['events_per_s'] as number);
  const measured = await statsRun(run, total);
  emit(measured);
  stats.push(measured['events_per_s'] as number);
}
summary['stats_events_per_s'] = median(stats);
summary['raw_kafkajs_events_per_s'] = median(raw);
summary['stats_vs_raw_consume'] = round(median(stats) / median(raw), 3);
if (PEAK !== undefined) {
  summary['bff_en_peak_events_per_s'] = PEAK;
  summary['stats_vs_bff_en_peak'] = round(median(stats) / PEAK, 2);
}
emit(summary);
