import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisConnection } from '@ipdata/common';
import { ManualClock, uniqueName, waitFor } from '@ipdata/common/testing';
import { RedisQuotaStore, QuotaService, QuotaUnavailableError, type QuotaSubject } from '../src/index.js';

const logger = pino({ level: 'silent' });
/** The quota's deadline for a store call: past it, "Redis down" and the fail rule decides. */
const DEADLINE_MS = 1_000;
/**
 * A reservation while Redis is dead or hung is decided within the deadline plus the fail rule's
 * work (a journal write): 5 deadlines leave a loaded machine room and are far below a hang.
 */
const DECIDED_WITHIN_MS = 5 * DEADLINE_MS;

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

describe('quota when Redis does not answer: free keys fail closed, paid keys fail open, journalled, counted once', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  async function setUp() {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'quota-redis-'));
    const journalDir = mkdtempSync(join(tmpdir(), 'quota-journal-'));
    let redisProcess = await startRedis(port, dataDir);
    cleanup.push(() => stopRedis(redisProcess));
    // As bff-en wires it: common's RedisConnection with a short command timeout.
    const connection = RedisConnection.fromConfig({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 300 }, logger);
    await connection.start();
    cleanup.push(() => connection.shutdown());
    const clock = new ManualClock(new Date('2030-05-15T12:00:00Z'));
    const prefix = `${uniqueName('quota-down')}:`;
    const build = () => {
      const service = QuotaService.create({
        store: new RedisQuotaStore(connection.client, { keyPrefix: prefix }),
        clock,
        logger,
        journalDir,
        deadlineMs: DEADLINE_MS,
        replayIntervalMs: 100,
      });
      cleanup.push(() => service.shutdown());
      return service;
    };
    const counter = async (subject: QuotaSubject) =>
      Number(await connection.client.get(`${prefix}m:${subject.accountId}:2030-05`));
    return {
      connection,
      journalDir,
      build,
      counter,
      stop: () => stopRedis(redisProcess),
      restart: async () => {
        redisProcess = await startRedis(port, dataDir);
        await waitFor(async () => connection.client.status === 'ready', { what: 'ioredis reconnected' });
      },
      redisProcess: () => redisProcess,
    };
  }

  it('refuses free keys with QuotaUnavailableError, grants paid keys degraded within the last known cap, then counts the journal once', async () => {
    const redis = await setUp();
    const quota = redis.build();
    await quota.start();
    const paid = paidSubject();
    const free = freeSubject();
    expect(await quota.reserve({ requestId: 'a1', subject: paid, count: 5, partial: false })).toMatchObject({
      granted: 5,
      used: 5,
    });
    expect((await quota.reserve({ requestId: 'f1', subject: free, count: 1, partial: false })).granted).toBe(1);

    await redis.stop();
    const started = performance.now();
    await expect(quota.reserve({ requestId: 'f2', subject: free, count: 1, partial: false })).rejects.toBeInstanceOf(
      QuotaUnavailableError,
    );
    expect(performance.now() - started).toBeLessThan(DECIDED_WITHIN_MS); // a dead Redis does not hang requests
    const a2 = await quota.reserve({ requestId: 'a2', subject: paid, count: 4, partial: false });
    expect(a2).toMatchObject({ granted: 4, used: 9, degraded: true });
    // A retry during the outage gets the same answer and is not journalled again.
    expect(await quota.reserve({ requestId: 'a2', subject: paid, count: 4, partial: false })).toEqual({ ...a2, replayed: true });
    // The hard cap (25) still holds against what this process last knew (9).
    const a3 = await quota.reserve({ requestId: 'a3', subject: paid, count: 20, partial: true });
    expect(a3).toMatchObject({ granted: 16, used: 25, overage: 15, degraded: true });
    expect(await quota.reserve({ requestId: 'a4', subject: paid, count: 1, partial: false })).toMatchObject({
      granted: 0,
      denied: 'quota_exceeded',
      degraded: true,
    });
    await expect(quota.status(paid)).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(quota.stats).toMatchObject({ degradedGrants: 2, refusedUnavailable: 1 });

    // Segments (a replay attempt while Redis was down closes the active file) and the active file, in write order.
    const files = readdirSync(redis.journalDir).sort(
      (a, b) => Number(a.endsWith('.active.ndjson')) - Number(b.endsWith('.active.ndjson')),
    );
    expect(files.length).toBeGreaterThanOrEqual(1);
    const journal = files.map((file) => readFileSync(join(redis.journalDir, file), 'utf8')).join('');
    expect(
      journal
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { requestId: string; count: number }),
    ).toEqual([
      {
        requestId: 'a2',
        count: 4,
        accountId: paid.accountId,
        keyId: paid.keyId,
        at: '2030-05-15T12:00:00.000Z',
        // The store call that did not answer, and a2's place in it: its replay asks whether that call ran.
        call: expect.stringMatching(/^[0-9a-f-]{36}:\d+$/) as unknown,
        index: 0,
      },
      expect.objectContaining({ requestId: 'a3', count: 16 }),
    ]);
    // A grant journalled twice (two processes, or a crash between replay and removal) still counts once.
    appendFileSync(join(redis.journalDir, files[0] as string), journal.split('\n')[0] + '\n');

    await redis.restart();
    await waitFor(async () => readdirSync(redis.journalDir).length === 0, {
      what: 'journal applied and removed',
      timeoutMs: 20_000,
    });
    expect(await redis.counter(paid)).toBe(25); // 5 before + 4 (a2 once) + 16
    expect(await redis.counter(free)).toBe(1);
    expect(quota.stats.replayed).toBe(3);
    // The replay remembers each grant under its request id, as a resumed bulk chunk is remembered.
    expect(await quota.reserve({ requestId: 'a2', subject: paid, count: 4, partial: false, durable: true })).toMatchObject({
      granted: 4,
      used: 9,
      replayed: true,
    });
    const status = await quota.status(paid);
    expect(status).toMatchObject({ used: 25, overage: 15 });
    expect(status.perDay.key.at(-1)).toEqual({ date: '2030-05-15', count: 25 });
    expect((await quota.reserve({ requestId: 'f3', subject: free, count: 1, partial: false })).degraded).toBeUndefined();

    // The same journal left by a process that died (SIGKILL mid-outage): the next start claims and applies it, harmlessly.
    const dead = spawn(process.execPath, ['-e', '0']);
    await once(dead, 'exit');
    const orphan = `${hostname().replace(/[^A-Za-z0-9-]/g, '-')}~${dead.pid}~deadbeef.active.ndjson`;
    writeFileSync(join(redis.journalDir, orphan), journal);
    const next = redis.build();
    await next.start();
    expect(next.stats.replayed).toBe(2);
    expect(readdirSync(redis.journalDir)).toEqual([]);
    expect(await redis.counter(paid)).toBe(25);
  }, 60_000);

  it('a hung Redis (stopped process): the deadline applies the rule, and a grant Redis counted late is not counted twice', async () => {
    const redis = await setUp();
    const quota = redis.build();
    await quota.start();
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
    // The script sent before the timeout still runs once Redis continues, and the journal replays h2 again.
    await waitFor(async () => readdirSync(redis.journalDir).length === 0 && quota.stats.replayed >= 1, {
      what: 'journal applied',
      timeoutMs: 20_000,
    });
    // The late run did happen (it also counted the refused free request: the caveat README.md, "Quotas" names),
    // so h2 reached Redis twice, by the late script and by the replay, and counts once.
    expect(await redis.counter(free)).toBe(1);
    expect(await redis.counter(paid)).toBe(5);
  }, 60_000);
});
