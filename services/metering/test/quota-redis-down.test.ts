/**
 * The quota while Redis does not answer (README.md, "Redis unavailable"), on a redis-server of the
 * test's own (stopped, restarted, SIGSTOPped) and the stack's broker: free keys fail closed, paid
 * keys fail open within the last known cap and nothing is written for them; their usage events
 * reach the topic (straight to Kafka while Redis refuses the stream), and raising the counters to
 * the floors those events make (what stats' QuotaReconciler does with its rollups) counts the
 * outage's grants once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisConnection, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { ManualClock, TopicRecorder, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import {
  RedisQuotaCounters,
  RedisQuotaStore,
  QuotaService,
  QuotaUnavailableError,
  RedisUsageStream,
  UsageChannel,
  UsageKafkaSink,
  UsageLedger,
  UsageRelay,
  UsageResult,
  quotaDay,
  type QuotaCounterFloor,
  type QuotaSubject,
} from '../src/index.js';
import { usageLedgerTestTopic } from './fixtures/usage-ledger-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
/** The quota's deadline for a store call: past it, "Redis down" and the fail rule decides. */
const DEADLINE_MS = 1_000;
/** A reservation while Redis is dead or hung is decided within the deadline: 5 deadlines leave a loaded machine room and are far below a hang. */
const DECIDED_WITHIN_MS = 5 * DEADLINE_MS;
const NOW = new Date('2030-05-15T12:00:00Z');

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A Redis of this test's own (so stopping it disturbs no one), persisting every write so a restart keeps the counters. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
    { stdio: 'ignore' },
  );
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(true));
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
      }),
    { what: 'redis-server listening' },
  );
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

const paidSubject = (): QuotaSubject => ({
  accountId: uniqueName('paid'),
  keyId: uniqueName('key'),
  paid: true,
  includedPerMonth: 10,
  maxPerMonth: 25,
  overageAllowed: true,
  burstPerSecond: 1_000,
});

const freeSubject = (): QuotaSubject => ({
  accountId: uniqueName('free'),
  keyId: uniqueName('key'),
  paid: false,
  includedPerMonth: 100,
  maxPerMonth: undefined,
  overageAllowed: false,
  burstPerSecond: 1_000,
});

/**
 * The floors stats' reconciler raises the counters to, from the usage events: PUBLIC_API lookups
 * per account and month, account and day, key and day, each event id once (stats' claims).
 */
function floorsOf(events: readonly UsageEvent[], accounts: ReadonlySet<string>): QuotaCounterFloor[] {
  const seen = new Set<string>();
  const sums = new Map<string, QuotaCounterFloor>();
  const add = (kind: QuotaCounterFloor['kind'], owner: string, period: string, value: number) => {
    const floor = sums.get(`${kind}|${owner}|${period}`);
    if (floor) floor.value += value;
    else sums.set(`${kind}|${owner}|${period}`, { kind, owner, period, value });
  };
  for (const event of events) {
    const id = event.meta?.id ?? '';
    const time = event.meta?.time;
    if (!accounts.has(event.accountId) || seen.has(id) || time === undefined || event.count <= 0) continue;
    if (event.channel !== UsageChannel.USAGE_CHANNEL_PUBLIC_API) continue;
    seen.add(id);
    add('month', event.accountId, quotaDay(time).slice(0, 7), event.count);
    add('accountDay', event.accountId, quotaDay(time), event.count);
    add('keyDay', event.apiKeyId, quotaDay(time), event.count);
  }
  return [...sums.values()];
}

describe('quota when Redis does not answer: free keys fail closed, paid keys fail open, counted from their usage events', () => {
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'quota-redis-down-test' }, logger);
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  async function setUp() {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'quota-redis-'));
    let redisProcess = await startRedis(port, dataDir);
    cleanup.push(() => stopRedis(redisProcess));
    // As bff-en wires it: common's RedisConnection with a short command timeout.
    const url = `redis://127.0.0.1:${port}`;
    const connection = RedisConnection.fromConfig({ url, commandTimeoutMs: 300 }, logger);
    await connection.start();
    cleanup.push(() => connection.shutdown());
    const clock = new ManualClock(NOW);
    const prefix = `${uniqueName('quota-down')}:`;
    const quota = QuotaService.create({
      store: new RedisQuotaStore(connection.client, { keyPrefix: prefix }),
      clock,
      logger,
      deadlineMs: DEADLINE_MS,
    });
    await quota.start();
    cleanup.push(() => quota.shutdown());
    const counter = async (subject: QuotaSubject) =>
      Number(await connection.client.get(`${prefix}m:${subject.accountId}:2030-05`));
    return {
      url,
      connection,
      quota,
      counter,
      counters: new RedisQuotaCounters(connection.client, { keyPrefix: prefix }),
      stop: () => stopRedis(redisProcess),
      restart: async () => {
        redisProcess = await startRedis(port, dataDir);
        await waitFor(async () => connection.client.status === 'ready', { what: 'ioredis reconnected' });
      },
      redisProcess: () => redisProcess,
    };
  }

  it('grants paid keys within the last known cap, refuses free keys; the outage usage events reach the topic and raise the counter once', async () => {
    const redis = await setUp();
    const { quota } = redis;
    // The usage ledger as metering wires it, on a topic of the test's own: stream, relay, and Kafka straight when Redis refuses.
    const topic = usageLedgerTestTopic(uniqueName('test.quota-redis-down'));
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const recorder = await TopicRecorder.start(topic, { kafka });
    cleanup.push(() => recorder.stop());
    const sink = new UsageKafkaSink({ kafka, topic }, logger);
    await sink.start();
    cleanup.push(() => sink.shutdown());
    const reader = RedisConnection.fromConfig({ url: redis.url, commandTimeoutMs: 10_000 }, logger);
    await reader.start();
    cleanup.push(() => reader.shutdown());
    const stream = new RedisUsageStream(redis.connection.client, reader.client, { key: uniqueName('test:usage') });
    const relay = new UsageRelay({ stream, sink, consumer: 'quota-redis-down' }, logger);
    await relay.start();
    cleanup.push(() => relay.shutdown());
    const ledger = new UsageLedger({ store: stream, fallback: sink, source: 'bff-en' }, logger);
    await ledger.start();
    cleanup.push(() => ledger.shutdown());

    const paid = paidSubject();
    const free = freeSubject();
    const answered: string[] = [];
    /** A request: reserve, then (granted) record its usage event before answering, as bff-en does. */
    const request = async (requestId: string, subject: QuotaSubject, count: number, partial = false) => {
      const decision = await quota.reserve({ requestId, subject, count, partial });
      if (decision.granted > 0) {
        await ledger.record({
          requestId,
          channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
          accountId: subject.accountId,
          apiKeyId: subject.keyId,
          visitorId: '',
          endpoint: '/v1/batch',
          ip: '',
          ipVersion: 0,
          countryCode: '',
          province: '',
          result: UsageResult.USAGE_RESULT_FOUND,
          httpStatus: 200,
          latencyMs: 1,
          count: decision.granted,
          freeCount: 0,
          time: decision.at ?? NOW,
        });
        answered.push(requestId);
      }
      return decision;
    };

    expect(await request('a1', paid, 5)).toMatchObject({ granted: 5, used: 5 });
    expect((await request('f1', free, 1)).granted).toBe(1);

    await redis.stop();
    const started = performance.now();
    await expect(request('f2', free, 1)).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(performance.now() - started).toBeLessThan(DECIDED_WITHIN_MS); // a dead Redis does not hang requests
    const a2 = await request('a2', paid, 4);
    expect(a2).toMatchObject({ granted: 4, used: 9, degraded: true });
    // A retry during the outage gets the same answer from memory and grants nothing more.
    expect(await quota.reserve({ requestId: 'a2', subject: paid, count: 4, partial: false })).toEqual({ ...a2, replayed: true });
    // The hard cap (25) still holds against what this process last knew (9).
    expect(await request('a3', paid, 20, true)).toMatchObject({ granted: 16, used: 25, overage: 15, degraded: true });
    expect(await request('a4', paid, 1)).toMatchObject({ granted: 0, denied: 'quota_exceeded', degraded: true });
    await expect(quota.status(paid)).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(quota.stats).toMatchObject({ degradedGrants: 2, refusedUnavailable: 1 });
    // The outage's events went straight to Kafka (the stream refused them): on the topic while Redis is still down.
    const onTopic = () => new Set(recorder.records.map((record) => record.event.meta?.id));
    await waitFor(() => ['a2', 'a3'].every((id) => onTopic().has(id)), { what: "the outage's usage events on the topic" });

    // ioredis keeps a command of the last reconnect attempt queued and sends it once Redis is back
    // (a timed-out call running late, the next test's case): this one waits until none is left, so
    // Redis holds exactly what it granted before the outage.
    await waitFor(() => (redis.connection.client as unknown as { offlineQueue: { length: number } }).offlineQueue.length === 0, {
      what: 'no command queued for Redis',
      timeoutMs: 20_000,
    });
    await redis.restart();
    // Redis counted only what it granted: the outage's grants are not in it.
    expect(await redis.counter(paid)).toBe(5);
    expect(await redis.counter(free)).toBe(1);
    // Once Redis answers, it decides again (and a retry of an outage request id is its to judge).
    expect((await quota.reserve({ requestId: 'f3', subject: free, count: 1, partial: false })).degraded).toBeUndefined();
    await waitFor(() => answered.every((id) => onTopic().has(id)), {
      what: 'every answered request on the topic',
      timeoutMs: 60_000,
    });

    // The reconciler's raise with the floors of the events: the outage's grants counted, once.
    const accounts = new Set([paid.accountId, free.accountId]);
    const floors = floorsOf(
      recorder.records.map((record) => record.event),
      accounts,
    );
    expect(await redis.counters.raise(floors)).toBe(3); // paid's month, account day and key day; free is exact
    expect(await redis.counter(paid)).toBe(25); // 5 before + 4 (a2 once) + 16
    expect(await redis.counter(free)).toBe(2); // f1 + f3, both counted by Redis
    const status = await quota.status(paid);
    expect(status).toMatchObject({ used: 25, overage: 15 });
    expect(status.perDay.key.at(-1)).toEqual({ date: '2030-05-15', count: 25 });
    // Again (the next interval): nothing left to raise, nothing counted twice.
    expect(await redis.counters.raise(floors)).toBe(0);
    expect(await redis.counter(paid)).toBe(25);
  }, 90_000);

  it('releases while Redis is down: a fail-open grant is only forgotten, a Redis grant is given back once Redis answers', async () => {
    const redis = await setUp();
    const { quota } = redis;
    const paid = paidSubject();
    const r1 = await quota.reserve({ requestId: 'r1', subject: paid, count: 2, partial: false });
    expect(r1).toMatchObject({ granted: 2, used: 2 });

    await redis.stop();
    const d1 = await quota.reserve({ requestId: 'd1', subject: paid, count: 3, partial: false });
    expect(d1).toMatchObject({ granted: 3, degraded: true });
    // Both lookups failed: r1 was counted by Redis, d1 never was.
    await quota.release(paid, 'r1', 2, r1.at ?? NOW);
    await quota.release(paid, 'd1', 3, d1.at ?? NOW);
    await waitFor(() => (redis.connection.client as unknown as { offlineQueue: { length: number } }).offlineQueue.length === 0, {
      what: 'no command queued for Redis',
      timeoutMs: 20_000,
    });
    await redis.restart();
    expect(await redis.counter(paid)).toBe(2);

    // The first call Redis answers sends the release that waited; d1's is not sent at all.
    expect(await quota.reserve({ requestId: 'r2', subject: paid, count: 1, partial: false })).toMatchObject({
      granted: 1,
      used: 3,
    });
    await waitFor(async () => (await redis.counter(paid)) === 1, { what: "r1's release applied", timeoutMs: 20_000 });
    await quota.shutdown(); // waits for releases in flight
    expect(quota.stats.released).toBe(5);
    expect(await redis.counter(paid)).toBe(1);
  }, 60_000);

  it('a hung Redis (stopped process): the deadline applies the rule, and a grant Redis counted late is not raised again', async () => {
    const redis = await setUp();
    const { quota } = redis;
    const paid = paidSubject();
    const free = freeSubject();
    expect((await quota.reserve({ requestId: 'h1', subject: paid, count: 2, partial: false })).granted).toBe(2);

    redis.redisProcess().kill('SIGSTOP');
    try {
      const started = performance.now();
      const [paidDecision, freeDecision] = await Promise.allSettled([
        quota.reserve({ requestId: 'h2', subject: paid, count: 3, partial: false }),
        quota.reserve({ requestId: 'h3', subject: free, count: 1, partial: false }),
      ]);
      expect(performance.now() - started).toBeLessThan(DECIDED_WITHIN_MS); // the deadline, not the hung Redis
      expect(paidDecision).toMatchObject({ status: 'fulfilled', value: { granted: 3, degraded: true } });
      expect(freeDecision.status).toBe('rejected');
      expect((freeDecision as PromiseRejectedResult).reason).toBeInstanceOf(QuotaUnavailableError);
    } finally {
      redis.redisProcess().kill('SIGCONT');
    }
    // The script sent before the timeout still runs once Redis continues: it counts h2 (and the
    // refused free request: the caveat README.md, "Redis unavailable" names).
    await waitFor(async () => (await redis.counter(paid)) === 5, { what: 'the late script counted', timeoutMs: 20_000 });
    expect(await redis.counter(free)).toBe(1);
    // The floors of h1's and h2's events (2 + 3) are what Redis holds already: nothing raised, nothing twice.
    const day = quotaDay(NOW);
    const floors: QuotaCounterFloor[] = [
      { kind: 'month', owner: paid.accountId, period: '2030-05', value: 5 },
      { kind: 'accountDay', owner: paid.accountId, period: day, value: 5 },
      { kind: 'keyDay', owner: paid.keyId, period: day, value: 5 },
    ];
    expect(await redis.counters.raise(floors)).toBe(0);
    expect(await redis.counter(paid)).toBe(5);
  }, 60_000);
});
