/**
 * The headline proof of issue 12: stats is SIGKILLed 20 times at random moments and the broker
 * of the test stack is stopped 3 times for a few seconds while a producer sends 50,000 usage
 * events (5% of them re-sent with the same id). When it settles the hourly rollups equal exactly
 * the distinct events (nothing lost, nothing counted twice, per account, key, channel and hour),
 * and the hours it then closes on usage.rollup.v1 equal the rollups, once per (account, hour).
 *
 * stats runs as a real process from source (fixtures/stats-process.ts) on its own database,
 * consumer groups and Redis prefixes. Its closing boundary is set to the first hour of the
 * events before it starts, so those past hours stay open during the storm (HOUR_CLOSE_DELAY_MS
 * of 7 days) and close at the end, when stats is restarted with HOUR_CLOSE_DELAY_MS=0.
 * Figures: one JSON line on stdout. TEST_FAULT_EVENTS / TEST_FAULT_KILLS make it smaller locally.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, TOPICS, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { TopicRecorder, seededRandom, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { brokerControl } from '../../../scripts/test/broker-control.js';
import { bucketSums, sortedObject } from './fixtures/rollup-sums.js';
import { StatsProcess, freePort, statsTestEnv } from './fixtures/stats-process.js';
import {
  accountIds,
  expectedClosedHours,
  expectedHourBuckets,
  plannedEvents,
  sendAll,
  type PlannedEvent,
} from './fixtures/usage-load.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const EVENTS = Number(process.env['TEST_FAULT_EVENTS'] ?? 50_000);
const KILLS = Number(process.env['TEST_FAULT_KILLS'] ?? 20);
const BROKER_STOPS = 3;
const RESENT_SHARE = 0.05;
const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;
/** The events are spread over this long, so the consumer has work during the kills and outages. */
const PRODUCE_MS = 100_000;

describe('stats under SIGKILL and broker outages', () => {
  const stack = stackAddresses();
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'stats-fault-test' }, logger);
  const name = uniqueName('stats-fault');
  const logFile = join(mkdtempSync(join(tmpdir(), 'stats-fault-')), 'stats.log');
  const random = seededRandom(Number(process.env['TEST_FAULT_SEED'] ?? Date.now() % 100_000));
  const broker = brokerControl();
  let stats: StatsProcess;
  let producer: EventProducer;
  let mongo: Connection;
  let env: Record<string, string>;
  const admin = kafka.admin();

  /** Records the live consumer group has committed on the ledger (undefined while the broker is away). */
  const committedRecords = async (): Promise<number | undefined> => {
    try {
      const [offsets] = await admin.fetchOffsets({ groupId: name, topics: [TOPICS.usageLookup.name] });
      return (offsets?.partitions ?? []).reduce((sum, row) => sum + Math.max(0, Number(row.offset)), 0);
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    env = statsTestEnv(name, { grpc: await freePort(), health: await freePort() });
    await ensureTopics(kafka, topicSpecs([TOPICS.usageLookup, TOPICS.usageRollup]), logger);
    await admin.connect();
    producer = EventProducer.fromConfig({ kafka, source: 'bff-en', sendTimeoutMs: 5_000 }, logger);
    await producer.start();
    mongo = await mongoose.createConnection(env['MONGO_URL']!).asPromise();
    stats = new StatsProcess(
      {
        ...env,
        // A killed member leaves the group only when its session expires: the broker's minimum keeps restarts quick.
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        HOUR_CLOSE_DELAY_MS: String(SEVEN_DAYS_MS),
      },
      logFile,
    );
  });

  afterAll(async () => {
    await stats?.close();
    await producer?.shutdown();
    await admin.disconnect();
    await mongo?.close();
  });

  it('counts every distinct event exactly once and closes each hour once with the rollups’ value', async () => {
    const started = Date.now();
    const now = new Date();
    const thisHour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
    const hours = [6, 5, 4, 3, 2, 1].map((back) => new Date(thisHour - back * 3_600_000));
    const plan = { prefix: name, accounts: 4, keysPerAccount: 3, hours, random };
    const distinct = plannedEvents(plan, EVENTS);
    // Re-sends: the same event (same id and content) again, later in the flow, as a producer retry would.
    const sendList: PlannedEvent[] = [...distinct];
    const resent = Math.round(EVENTS * RESENT_SHARE);
    for (let i = 0; i < resent; i++) {
      const original = Math.floor(random() * EVENTS);
      const at = Math.min(sendList.length, original + 1 + Math.floor(random() * 5_000));
      sendList.splice(at, 0, distinct[original]!);
    }
    // The past hours stay open until the end: the closing boundary starts at the first of them.
    await mongo.collection('stats_state').insertOne({ _id: 'closing', openFrom: hours[0], closedTo: hours[0] } as never);

    stats.start();
    let kills = 0;
    let selfExits = 0;
    let killsDuringWork = 0;
    let brokerStops = 0;
    let sendRetries = 0;
    let producing = true;

    // The producer: the whole list over about a minute, in batches of 500 (each retried until it goes through).
    const produce = (async () => {
      let records = 0;
      const batch = 500;
      const pause = Math.max(50, Math.floor(PRODUCE_MS / (sendList.length / batch)));
      for (let start = 0; start < sendList.length; start += batch) {
        records += await sendAll(producer, sendList.slice(start, start + batch), { batch, onRetry: () => sendRetries++ });
        await sleep(pause);
      }
      producing = false;
      return records;
    })();

    // Crashes at random moments, during start-up and during work alike.
    const crash = (async () => {
      while (kills < KILLS) {
        // Most kills land while the process works (its committed offsets moved since it started: a
        // round is in flight or about to be), a few during start-up (connecting, joining, loading).
        const spawned = Date.now();
        if (random() < 0.2) {
          await sleep(500 + random() * 3_000);
        } else {
          // Waiting for progress ends after a while: during a broker outage the process is killed idle.
          const deadline = spawned + 12_000;
          let before = await committedRecords();
          while (Date.now() < deadline && before === undefined) before = await sleep(150).then(committedRecords);
          let now = before;
          while (Date.now() < deadline && (now === undefined || before === undefined || now <= before)) {
            await sleep(150);
            now = await committedRecords();
          }
          if (Date.now() < deadline) killsDuringWork++;
          await sleep(random() * 700);
        }
        // A process that could not start while the broker was down exited by itself: started again, not counted.
        if (stats.running) kills++;
        else selfExits++;
        await stats.stop('SIGKILL');
        stats.start();
      }
    })();

    // Broker outages of a few seconds while the events flow.
    const outages = (async () => {
      if (!broker) return;
      for (let i = 0; i < BROKER_STOPS; i++) {
        await sleep(8_000 + random() * 6_000);
        await broker.stop();
        brokerStops++;
        await sleep(3_000 + random() * 2_000);
        await broker.start();
      }
    })();

    const [records] = await Promise.all([produce, crash, outages]);
    expect(producing).toBe(false);
    if (!stats.running) stats.start();

    const accounts = accountIds(plan);
    const expected = expectedHourBuckets(distinct.map((planned) => planned.event));
    const counted = async () => {
      const sums = await bucketSums(mongo, 'usage_rollups', { accountId: { $in: accounts }, g: 'h' });
      return new Map([...sums].map(([bucket, c]) => [bucket, { lookups: c['lookups'] ?? 0, requests: c['requests'] ?? 0 }]));
    };
    const settled = await waitFor(
      async () => {
        const now = await counted();
        const total = [...now.values()].reduce((sum, bucket) => sum + bucket.requests, 0);
        return total >= EVENTS ? now : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 1_000, what: `${EVENTS} events in the rollups` },
    ).catch(async (error: Error) => {
      const now = await counted();
      const total = [...now.values()].reduce((sum, bucket) => sum + bucket.requests, 0);
      throw new Error(`${error.message}: ${total} counted; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-4_000)}`);
    });
    await sleep(2_000); // anything still arriving now would be a double count
    const final = await counted();
    expect(sortedObject(final)).toEqual(sortedObject(expected));
    const countedEvents = [...final.values()].reduce((sum, bucket) => sum + bucket.requests, 0);
    expect(settled.size).toBe(expected.size);

    // Close the past hours: restart with no closing delay and read what billing would read.
    const recorder = await TopicRecorder.start(TOPICS.usageRollup, { kafka });
    const closedWanted = expectedClosedHours(distinct.map((planned) => planned.event));
    try {
      await stats.stop('SIGTERM');
      stats.start({ HOUR_CLOSE_DELAY_MS: '0', CLOSE_INTERVAL_MS: '200' });
      const ours = new Set(accounts);
      const closedHours = () =>
        recorder.records
          .map((record) => record.event)
          .filter(
            (rollup) =>
              rollup.closed && rollup.granularity === RollupGranularity.ROLLUP_GRANULARITY_HOUR && ours.has(rollup.accountId),
          );
      await waitFor(
        () => {
          const seen = new Set(closedHours().map((rollup) => `${rollup.accountId}|${rollup.periodStart?.toISOString()}`));
          return [...closedWanted.keys()].every((key) => seen.has(key));
        },
        { timeoutMs: 90_000, intervalMs: 500, what: `${closedWanted.size} closed hours on ${TOPICS.usageRollup.name}` },
      );
      // Re-sent copies of one closed record are allowed (consumers de-duplicate by id); two values for one hour are not.
      const values = new Map<string, Set<number>>();
      const ids = new Map<string, Set<string>>();
      for (const rollup of closedHours()) {
        const key = `${rollup.accountId}|${rollup.periodStart?.toISOString()}`;
        values.set(key, (values.get(key) ?? new Set()).add(rollup.lookups));
        ids.set(key, (ids.get(key) ?? new Set()).add(rollup.meta?.id ?? ''));
      }
      const closed = new Map([...values].map(([key, set]) => [key, [...set]]));
      expect(sortedObject(closed)).toEqual(sortedObject(new Map([...closedWanted].map(([key, lookups]) => [key, [lookups]]))));
      expect([...ids.values()].every((set) => set.size === 1)).toBe(true);
      // The rollups say the same as the closed hours.
      const rollupHours = new Map<string, number>();
      for (const [bucket, sums] of final) {
        const [account, , channel, , hour] = bucket.split('|');
        if (channel !== '1') continue;
        const key = `${account}|${hour}`;
        rollupHours.set(key, (rollupHours.get(key) ?? 0) + sums.lookups);
      }
      expect(sortedObject(rollupHours)).toEqual(sortedObject(closedWanted));

      process.stdout.write(
        `${JSON.stringify({
          test: 'stats-fault-ledger',
          sent: records,
          resent,
          sendRetries,
          distinct: distinct.length,
          counted: countedEvents,
          lost: distinct.length - countedEvents,
          closedHours: closed.size,
          kills,
          killsDuringWork,
          selfExits,
          brokerStops,
          starts: stats.starts,
          durationS: Math.round((Date.now() - started) / 100) / 10,
        })}\n`,
      );
    } finally {
      await recorder.stop();
    }
    expect(kills).toBe(KILLS);
    if (broker) expect(brokerStops).toBe(BROKER_STOPS);
  }, 420_000);
});
