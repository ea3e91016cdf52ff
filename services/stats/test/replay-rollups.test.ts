/**
 * Replay end to end on a stats process: events (some re-sent with the same id) over three days
 * go through the live consumer; a replay from the earliest record, then one from yesterday,
 * each rebuild the usage and trend rollups into fresh collections and swap them in. Every bucket
 * (all documents' counters summed over partitions) equals the generation it replaced; the
 * queries answer from the new generation; and the live consumer goes on writing into it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, TOPICS, createGrpcClient, createKafka, ensureTopics, topicSpecs, topicEndOffsets } from '@ipdata/common';
import { grpcCaller, seededRandom, stackAddresses, testGrpcTls, uniqueName, waitFor } from '@ipdata/common/testing';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import * as statsApi from '@ipdata/proto/stats/v1/stats';
import { ReplayState, StatsServiceClient, StatsServiceService, type StartReplayRequest } from '@ipdata/proto/stats/v1/stats';
import { CARRY_LOOKBACK_MS } from '../src/closing/carry.js';
import { bucketSums, sortedObject } from './fixtures/rollup-sums.js';
import { StatsProcess, freePort, statsTestEnv } from './fixtures/stats-process.js';
import { accountIds, plannedEvents, type PlannedEvent } from './fixtures/usage-load.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const DAY_MS = 24 * 3_600_000;

describe('replay of the usage ledger into a fresh generation', () => {
  const stack = stackAddresses();
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'replay-test' }, logger);
  const name = uniqueName('stats-replay');
  const logFile = join(mkdtempSync(join(tmpdir(), 'stats-replay-')), 'stats.log');
  const random = seededRandom(7);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const thisHour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  // Hours of the day before yesterday, of yesterday and of today (up to the last full hour).
  const hours = [
    today - 2 * DAY_MS + 5 * 3_600_000,
    today - DAY_MS + 3 * 3_600_000,
    today - DAY_MS + 20 * 3_600_000,
    thisHour - 3_600_000,
  ].map((time) => new Date(time));
  const plan = { prefix: name, accounts: 3, keysPerAccount: 2, hours, random };
  let env: Record<string, string>;
  let stats: StatsProcess;
  let producer: EventProducer;
  let mongo: Connection;
  let client: StatsServiceClient;

  const api = () => grpcCaller(client, StatsServiceService, { codecs: statsApi });
  const requests = async (collection: string) => {
    const sums = await bucketSums(mongo, collection, { accountId: { $in: accountIds(plan) }, g: 'h' });
    return [...sums.values()].reduce((sum, c) => sum + (c['requests'] ?? 0), 0);
  };
  /** Every bucket of a generation (all accounts, all trends), and the carries the closer reads. */
  const generationSums = async (suffix: string) => ({
    usage: sortedObject(await bucketSums(mongo, `usage_rollups${suffix}`, {}, ['cr:'])),
    trends: sortedObject(await bucketSums(mongo, `trend_rollups${suffix}`)),
    carried: sortedObject(
      new Map(
        [...(await bucketSums(mongo, `usage_rollups${suffix}`))]
          .map(([bucket, c]): [string, Record<string, number>] => [
            bucket,
            Object.fromEntries(Object.entries(c).filter(([key]) => key.startsWith('cr:'))),
          ])
          // The closer reads carries of the last CARRY_LOOKBACK_MS only, and a swap copies those (older ones bill nothing).
          .filter(
            ([bucket, c]) =>
              Object.keys(c).length > 0 &&
              Date.parse(bucket.slice(bucket.lastIndexOf('|') + 1)) > Date.now() - CARRY_LOOKBACK_MS + DAY_MS,
          ),
      ),
    ),
  });

  async function send(count: number, first: number, resend: number): Promise<number> {
    const events = plannedEvents(plan, count, first);
    const list: PlannedEvent[] = [...events];
    for (let i = 0; i < resend; i++) list.push(events[Math.floor(random() * events.length)]!);
    for (let i = 0; i < list.length; i += 500) await producer.sendMany(TOPICS.usageLookup, list.slice(i, i + 500));
    return events.length;
  }

  /**
   * Waits until stats' live consumer has read the whole ledger: it reads the shared topic from the
   * beginning (other files' events too), and a generation compared with its replay must not grow meanwhile.
   */
  async function caughtUp(): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          const high = await topicEndOffsets(kafka, TOPICS.usageLookup.name);
          const [group] = await admin.fetchOffsets({ groupId: name, topics: [TOPICS.usageLookup.name] });
          const committed = new Map((group?.partitions ?? []).map((row) => [row.partition, Number(row.offset)]));
          return high.every((row) => Number(row.high) === Number(row.low) || committed.get(row.partition) === Number(row.high));
        },
        { timeoutMs: 240_000, intervalMs: 500, what: 'stats caught up with the ledger' },
      );
    } finally {
      await admin.disconnect();
    }
  }

  async function replay(from: Partial<StartReplayRequest>) {
    const started = (await api().startReplay(from)).replay!;
    expect(started.state).toBe(ReplayState.REPLAY_STATE_RUNNING);
    const done = await waitFor(
      async () => {
        const { replay: now } = await api().getReplay({ id: started.id });
        return now && now.state !== ReplayState.REPLAY_STATE_RUNNING ? now : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, what: `replay ${started.id}` },
    );
    expect(done.error).toBe('');
    expect(done.state).toBe(ReplayState.REPLAY_STATE_SWAPPED);
    return done;
  }

  beforeAll(async () => {
    env = {
      ...statsTestEnv(name, { grpc: await freePort(), health: await freePort() }),
      // No hour closes while the test runs, whatever the time of day: a swap copies the carries
      // into hours still open, and the live generation it is compared with keeps every carry.
      HOUR_CLOSE_DELAY_MS: String(7 * DAY_MS),
    };
    await ensureTopics(kafka, topicSpecs([TOPICS.usageLookup]), logger);
    producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
    await producer.start();
    mongo = await mongoose.createConnection(env['MONGO_URL']!).asPromise();
    stats = new StatsProcess(env, logFile);
    stats.start();
    await waitFor(() => stats.ready(), { timeoutMs: 90_000, intervalMs: 250, what: 'stats ready' }).catch((error: Error) => {
      throw new Error(`${error.message}; log:\n${readFileSync(logFile, 'utf8').slice(-4_000)}`);
    });
    client = createGrpcClient(StatsServiceClient, {
      address: `127.0.0.1:${env['GRPC_PORT']}`,
      tls: testGrpcTls('operator'),
      defaultDeadlineMs: 30_000,
    });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await stats?.close();
    await producer?.shutdown();
    await mongo?.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('rebuilds from the earliest record and from a time with the live numbers, then keeps counting into the new generation', async () => {
    const distinct = await send(3_000, 0, 150);
    await waitFor(async () => (await requests('usage_rollups')) === distinct, {
      // The shared ledger may hold other files' events before ours: this stats reads it from the beginning.
      timeoutMs: 240_000,
      intervalMs: 250,
      what: 'live rollups',
    });
    await sleep(1_000); // nothing more may arrive: duplicates are not counted
    expect(await requests('usage_rollups')).toBe(distinct);
    await caughtUp();
    const live = await generationSums('');
    const usageBefore = await api().getUsage({
      accountId: accountIds(plan)[0]!,
      from: new Date(today - 2 * DAY_MS),
      to: new Date(today + DAY_MS),
      granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
    });

    // From the earliest record.
    const first = await replay({ earliest: true });
    const firstSuffix = first.generation.split(',')[0]!.replace('usage_rollups', '');
    expect(firstSuffix).toMatch(/^_g/);
    expect(first.eventsCounted).toBeGreaterThanOrEqual(distinct);
    expect(first.recordsLeft).toBe(0);
    expect(await generationSums(firstSuffix)).toEqual(live);
    const usageAfter = await api().getUsage({
      accountId: accountIds(plan)[0]!,
      from: new Date(today - 2 * DAY_MS),
      to: new Date(today + DAY_MS),
      granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
    });
    expect({ ...usageAfter, asOf: undefined }).toEqual({ ...usageBefore, asOf: undefined });

    // From a time: yesterday is rebuilt from the ledger, the day before is copied.
    const second = await replay({ time: new Date(today - DAY_MS + 9 * 3_600_000) });
    const secondSuffix = second.generation.split(',')[0]!.replace('usage_rollups', '');
    expect(secondSuffix).not.toBe(firstSuffix);
    expect(second.eventsCounted).toBeLessThan(first.eventsCounted);
    expect(await generationSums(secondSuffix)).toEqual(live);

    // The live consumer resumed and writes into the generation now live.
    const more = await send(200, 3_000, 10);
    await waitFor(async () => (await requests(`usage_rollups${secondSuffix}`)) === distinct + more, {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: 'new events in the new generation',
    });
    expect(await requests('usage_rollups')).toBe(distinct);
  }, 600_000);
});
