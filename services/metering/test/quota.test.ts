import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock, uniqueName } from '@ipdata/common/testing';
import {
  RedisQuotaStore,
  quotaAccountDayKey,
  quotaKeyDayKey,
  quotaMonthKey,
  QuotaService,
  periodOf,
  type QuotaDecision,
  type QuotaSubject,
} from '../src/index.js';
import { quotaSubject, quotaSuite } from './fixtures/quota-harness.js';
import { runReservers, sum } from './fixtures/quota-reservers.js';

const logger = pino({ level: 'silent' });

const subject = quotaSubject;

describe('quota engine on real Redis: exact under concurrency, never double counted', () => {
  const { redis, prefix, keep, reserverEnv } = quotaSuite('quota-test');

  const START = new Date('2030-05-15T12:00:00Z');

  function quotaService(clock = new ManualClock(START)) {
    const service = QuotaService.create({
      store: new RedisQuotaStore(redis, { keyPrefix: prefix }),
      clock,
      logger,
      deadlineMs: 5_000,
    });
    keep(service);
    return { service, clock };
  }

  const monthCounter = async (accountId: string, month = '2030-05') =>
    Number(await redis.get(`${prefix}m:${accountId}:${month}`));

  it('200 concurrent reservations: one script call for many, exactly the included 100 granted, same answers as one by one', async () => {
    const { service } = quotaService();
    const who = subject();
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => service.reserve({ requestId: `r${i}`, subject: who, count: 1, partial: false })),
    );
    const granted = decisions.filter((decision) => decision.granted === 1);
    expect(granted).toHaveLength(100);
    expect(decisions.filter((decision) => decision.denied === 'quota_exceeded')).toHaveLength(100);
    // One by one, grant n would see used = n: the batched answers are exactly those.
    expect(granted.map((decision) => decision.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(decisions.slice(0, 100).every((decision) => decision.granted === 1)).toBe(true);
    expect(decisions[199]).toMatchObject({ granted: 0, used: 100, remaining: 0, limit: 100 });
    expect(decisions[199]?.retryAfterSeconds).toBe(16 * 24 * 3600 + 12 * 3600); // until 2030-06-01T00:00Z
    expect(service.stats.reservations).toBe(200);
    expect(service.stats.scriptCalls).toBeLessThanOrEqual(2);
    expect(await monthCounter(who.accountId)).toBe(100);
  });

  it('3 processes × 100 concurrent reservations for one account allowing 100 → exactly 100 granted, 200 denied', async () => {
    const who = subject();
    const results = await runReservers(3, {
      ...reserverEnv(who),
      INCLUDED: '100',
      CONCURRENCY: '100',
      // Their clocks start at START and run: the same month whatever the date of the run.
      CLOCK_START: START.toISOString(),
    });
    expect(sum(results, 'granted')).toBe(100);
    expect(sum(results, 'denied')).toBe(200);
    for (const result of results) expect(result.scriptCalls).toBeLessThan(10);
    expect(await monthCounter(who.accountId, periodOf(START).month)).toBe(100);
  }, 60_000);

  it('batches never push past the quota: partial ones get what is left, all-or-nothing ones are refused whole', async () => {
    const { service } = quotaService();
    const who = subject();
    const decisions = await Promise.all(
      [30, 30, 30, 30].map((count, i) => service.reserve({ requestId: `b${i}`, subject: who, count, partial: true })),
    );
    expect(decisions.map((decision) => decision.granted)).toEqual([30, 30, 30, 10]);
    expect(decisions[3]?.denied).toBeUndefined();
    const none = await service.reserve({ requestId: 'b4', subject: who, count: 5, partial: true });
    expect(none).toMatchObject({ granted: 0, denied: 'quota_exceeded', used: 100 });

    const other = subject();
    const tooBig = await service.reserve({ requestId: 'c0', subject: other, count: 150, partial: false });
    expect(tooBig).toMatchObject({ granted: 0, denied: 'quota_exceeded', used: 0, remaining: 100 });
    const fits = await service.reserve({ requestId: 'c1', subject: other, count: 100, partial: false });
    expect(fits).toMatchObject({ granted: 100, used: 100, remaining: 0 });
    expect(await monthCounter(who.accountId)).toBe(100);
    expect(await monthCounter(other.accountId)).toBe(100);
  });

  it('a retried reservation (same request id, concurrent or later) answers the same grant and counts once', async () => {
    const { service } = quotaService();
    const who = subject();
    const request = { requestId: 'job-1:0', subject: who, count: 40, partial: true, durable: true };
    const [first, concurrent] = await Promise.all([service.reserve(request), service.reserve(request)]);
    const later = await service.reserve(request);
    expect(first).toMatchObject({ granted: 40, used: 40 });
    expect(concurrent).toMatchObject({ granted: 40, used: 40, replayed: true });
    expect(later).toMatchObject({ granted: 40, used: 40, replayed: true });
    expect(await monthCounter(who.accountId)).toBe(40);
    const status = await service.status(who);
    expect(status.perDay.account.at(-1)).toEqual({ date: '2030-05-15', count: 40 });
    expect(await redis.ttl(`${prefix}r:${who.accountId}:job-1:0`)).toBeGreaterThan(34 * 24 * 3600);
    // An ordinary API request has no record of its own (one key per request would fill Redis and
    // cost two commands each): its script call's answer is remembered, for minutes only.
    await service.reserve({ requestId: 'req-1', subject: who, count: 1, partial: false });
    expect(await redis.exists(`${prefix}r:${who.accountId}:req-1`)).toBe(0);
    const calls = await redis.keys(`${prefix}c:*`);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const ttl = await redis.ttl(call);
      expect(ttl).toBeGreaterThan(60);
      expect(ttl).toBeLessThanOrEqual(120);
    }
  });

  it('a store call that reaches Redis twice (a client resend) answers its first run again and counts once', async () => {
    const store = new RedisQuotaStore(redis, { keyPrefix: prefix });
    const who = subject();
    const command = (count: number, partial: boolean) => ({
      accountId: who.accountId,
      keyId: who.keyId,
      count,
      partial,
      ceiling: 100,
      burstPerSecond: 0,
      month: '2030-05',
      day: '2030-05-15',
      second: 1_905_163_200,
    });
    const commands = [command(60, false), command(60, true), command(10, false)];
    const first = await store.reserveCall('resent-call', commands, 120);
    expect(first.map(({ status, granted, used }) => [status, granted, used])).toEqual([
      ['granted', 60, 60],
      ['granted', 40, 100],
      ['quota_exceeded', 0, 100],
    ]);
    expect(await store.reserveCall('resent-call', commands, 120)).toEqual(first);
    expect(await monthCounter(who.accountId)).toBe(100);
  });

  it('every counter gets its TTL when a grant makes it, through either script, and keeps it as grants add up', async () => {
    const store = new RedisQuotaStore(redis, { keyPrefix: prefix, counterTtlSeconds: 5_000 });
    const [viaCall, viaEach] = [subject(), subject()];
    const command = (who: QuotaSubject) => ({
      accountId: who.accountId,
      keyId: who.keyId,
      count: 3,
      partial: false,
      ceiling: 100,
      burstPerSecond: 10,
      month: '2030-05',
      day: '2030-05-15',
      second: 1_905_163_200,
    });
    const counters = (who: QuotaSubject) => [
      quotaMonthKey(prefix, who.accountId, '2030-05'),
      quotaAccountDayKey(prefix, who.accountId, '2030-05-15'),
      quotaKeyDayKey(prefix, who.keyId, '2030-05-15'),
    ];
    await store.reserveCall('ttl-call', [command(viaCall)], 120);
    await store.reserveEach([{ ...command(viaEach), requestId: 'ttl-each', force: false, rememberSeconds: 600 }]);
    for (const who of [viaCall, viaEach]) {
      for (const key of counters(who)) {
        expect(await redis.get(key)).toBe('3');
        expect(await redis.ttl(key)).toBeGreaterThan(4_900);
      }
      const burstTtl = await redis.ttl(`${prefix}b:${who.keyId}:1905163200`);
      expect(burstTtl).toBeGreaterThan(0);
      expect(burstTtl).toBeLessThanOrEqual(2);
    }
    // A counter made earlier keeps the TTL it has while grants add to it (EXPIRE only when made).
    await redis.expire(counters(viaCall)[0] as string, 4_000);
    await store.reserveCall('ttl-call-2', [command(viaCall)], 120);
    expect(await redis.get(counters(viaCall)[0] as string)).toBe('6');
    expect(await redis.ttl(counters(viaCall)[0] as string)).toBeLessThanOrEqual(4_000);
    expect(await redis.ttl(counters(viaCall)[1] as string)).toBeGreaterThan(3_900);
  });

  it('a forced reservation naming its call counts once, whether that call ran before, after or denied it', async () => {
    const store = new RedisQuotaStore(redis, { keyPrefix: prefix });
    const who = subject();
    const command = (count: number) => ({
      accountId: who.accountId,
      keyId: who.keyId,
      count,
      partial: false,
      ceiling: 10,
      burstPerSecond: 0,
      month: '2030-05',
      day: '2030-05-15',
      second: 1_905_163_200,
    });
    const replay = (requestId: string, count: number, call: string, index: number) =>
      store.reserveEach([{ ...command(count), requestId, force: true, rememberSeconds: 600, call: { id: call, index } }]);

    // The call never reached Redis before the replay: the replay counts, and the call arriving late counts nothing.
    expect((await replay('g1', 5, 'late-call', 0))[0]).toMatchObject({ granted: 5, replayed: false });
    await expect(store.reserveCall('late-call', [command(5)], 120)).rejects.toThrow(/QUOTA_CALL_REPLAYED/);
    expect(await monthCounter(who.accountId)).toBe(5);
    // The call ran (late) and granted it: the replay finds that and counts nothing.
    await store.reserveCall('early-call', [command(1), command(2)], 120);
    expect((await replay('g2', 2, 'early-call', 1))[0]).toMatchObject({ granted: 2, used: 8, replayed: true });
    expect(await monthCounter(who.accountId)).toBe(8);
    // The call ran and refused it (no room), but the fail rule had served it: the replay counts it.
    expect((await store.reserveCall('refusing-call', [command(5)], 120))[0]?.status).toBe('quota_exceeded');
    expect((await replay('g3', 5, 'refusing-call', 0))[0]).toMatchObject({ granted: 5, replayed: false });
    expect(await monthCounter(who.accountId)).toBe(13);
    // The same forced reservations again change nothing.
    expect((await replay('g1', 5, 'late-call', 0))[0]?.replayed).toBe(true);
    expect((await replay('g3', 5, 'refusing-call', 0))[0]?.replayed).toBe(true);
    expect(await monthCounter(who.accountId)).toBe(13);
  });

  it('burst: at most burstPerSecond requests per key per second, refused ones count nothing, the next second passes', async () => {
    const { service, clock } = quotaService();
    const who = subject({ burstPerSecond: 5 });
    const decisions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => service.reserve({ requestId: `s${i}`, subject: who, count: 2, partial: false })),
    );
    expect(decisions.filter((decision) => decision.granted === 2)).toHaveLength(5);
    const refused = decisions.filter((decision) => decision.denied === 'burst_exceeded');
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatchObject({ granted: 0, retryAfterSeconds: 1 });
    expect(await monthCounter(who.accountId)).toBe(10);
    // Another key of the same account has its own burst window.
    const secondKey = await service.reserve({
      requestId: 'k2',
      subject: { ...who, keyId: uniqueName('key') },
      count: 1,
      partial: false,
    });
    expect(secondKey.granted).toBe(1);
    // Server-started work (bulk chunks) is not a client request.
    const chunk = await service.reserve({ requestId: 'chunk', subject: who, count: 1, partial: true, checkBurst: false });
    expect(chunk.granted).toBe(1);
    clock.advance(1_000);
    expect((await service.reserve({ requestId: 's9', subject: who, count: 2, partial: false })).granted).toBe(2);
  });

  it('paid plans continue as overage up to the hard cap; without a cap they go on', async () => {
    const { service } = quotaService();
    const who = subject({ paid: true, includedPerMonth: 10, overageAllowed: true, maxPerMonth: 15 });
    const reserve = (id: string, count: number, partial = false) =>
      service.reserve({ requestId: id, subject: who, count, partial });
    expect(await reserve('o1', 10)).toMatchObject({ granted: 10, used: 10, remaining: 0, overage: 0 });
    expect(await reserve('o2', 2)).toMatchObject({ granted: 2, used: 12, remaining: 0, overage: 2, limit: 10 });
    expect(await reserve('o3', 10)).toMatchObject({ granted: 0, denied: 'quota_exceeded' });
    expect(await reserve('o4', 10, true)).toMatchObject({ granted: 3, used: 15, overage: 5 });
    expect(await reserve('o5', 1)).toMatchObject({ granted: 0, denied: 'quota_exceeded', used: 15 });

    const open = subject({ paid: true, includedPerMonth: 10, overageAllowed: true, maxPerMonth: undefined });
    const big = await service.reserve({ requestId: 'u1', subject: open, count: 1_000, partial: false });
    expect(big).toMatchObject({ granted: 1_000, used: 1_000, overage: 990, remaining: 0 });

    const hardStop = subject({ paid: true, includedPerMonth: 10, overageAllowed: false });
    expect(await service.reserve({ requestId: 'h1', subject: hardStop, count: 11, partial: true })).toMatchObject({
      granted: 10,
    });
  });

  it('a plan upgrade applies to the next reservation (the limit comes with the request)', async () => {
    const { service } = quotaService();
    const free = subject({ includedPerMonth: 5 });
    expect((await service.reserve({ requestId: 'p1', subject: free, count: 5, partial: false })).granted).toBe(5);
    expect((await service.reserve({ requestId: 'p2', subject: free, count: 1, partial: false })).denied).toBe('quota_exceeded');
    const upgraded = { ...free, paid: true, includedPerMonth: 50 };
    expect(await service.reserve({ requestId: 'p3', subject: upgraded, count: 1, partial: false })).toMatchObject({
      granted: 1,
      used: 6,
      remaining: 44,
    });
  });

  it('calendar months in UTC: the counter starts again at the first instant of the next month', async () => {
    const clock = new ManualClock(new Date('2030-01-31T23:59:59.500Z'));
    const { service } = quotaService(clock);
    const who = subject({ includedPerMonth: 3 });
    const reserve = (id: string): Promise<QuotaDecision> =>
      service.reserve({ requestId: id, subject: who, count: 1, partial: false });
    for (const id of ['m1', 'm2', 'm3']) expect((await reserve(id)).granted).toBe(1);
    const refused = await reserve('m4');
    expect(refused).toMatchObject({ denied: 'quota_exceeded', resetAt: new Date('2030-02-01T00:00:00Z'), retryAfterSeconds: 1 });
    clock.advance(500);
    expect(await reserve('m5')).toMatchObject({ granted: 1, used: 1, remaining: 2, resetAt: new Date('2030-03-01T00:00:00Z') });
    expect(await monthCounter(who.accountId, '2030-01')).toBe(3);
    expect(await monthCounter(who.accountId, '2030-02')).toBe(1);
    const status = await service.status(who);
    expect(status).toMatchObject({ limit: 3, used: 1, remaining: 2, overage: 0, resetAt: new Date('2030-03-01T00:00:00Z') });
    expect(status.perDay.account).toEqual([{ date: '2030-02-01', count: 1 }]);
  });

  it('a release gives a grant back in the month and day it was granted, once, whatever the clock says now', async () => {
    const clock = new ManualClock(new Date('2030-09-30T23:59:59.900Z'));
    const { service } = quotaService(clock);
    const who = subject({ includedPerMonth: 10 });
    const first = await service.reserve({ requestId: 'rel-1', subject: who, count: 3, partial: false });
    await service.reserve({ requestId: 'rel-2', subject: who, count: 4, partial: false });
    expect(await monthCounter(who.accountId, '2030-09')).toBe(7);
    // The lookup failed after its grant; the answer goes out in the next month.
    clock.advance(200);
    await service.release(who, 'rel-1', 3, first.at as Date);
    await service.release(who, 'rel-1', 3, first.at as Date);
    expect(await monthCounter(who.accountId, '2030-09')).toBe(4);
    expect(await monthCounter(who.accountId, '2030-10')).toBe(0);
    expect(Number(await redis.get(`${prefix}da:${who.accountId}:2030-09-30`))).toBe(4);
    expect(Number(await redis.get(`${prefix}dk:${who.keyId}:2030-09-30`))).toBe(4);
    expect(service.stats.released).toBe(3);
    // What was given back can be granted again: 6 of the 10 are left in September.
    clock.set(new Date('2030-09-30T23:59:59.950Z'));
    expect((await service.reserve({ requestId: 'rel-3', subject: who, count: 6, partial: false })).granted).toBe(6);
  });

  it('status: monthly counters and per-day counts for the account and for the key, this month', async () => {
    const clock = new ManualClock(new Date('2030-07-01T08:00:00Z'));
    const { service } = quotaService(clock);
    const keyA = subject({ includedPerMonth: 1_000 });
    const keyB = { ...keyA, keyId: uniqueName('key') };
    await service.reserve({ requestId: 'd1', subject: keyA, count: 7, partial: false });
    clock.advance(2 * 24 * 3600 * 1000);
    await service.reserve({ requestId: 'd2', subject: keyA, count: 3, partial: false });
    await service.reserve({ requestId: 'd3', subject: keyB, count: 5, partial: false });
    const status = await service.status(keyB);
    expect(status).toMatchObject({ limit: 1_000, used: 15, remaining: 985, resetAt: new Date('2030-08-01T00:00:00Z') });
    expect(status.perDay.account).toEqual([
      { date: '2030-07-01', count: 7 },
      { date: '2030-07-02', count: 0 },
      { date: '2030-07-03', count: 8 },
    ]);
    expect(status.perDay.key).toEqual([
      { date: '2030-07-01', count: 0 },
      { date: '2030-07-02', count: 0 },
      { date: '2030-07-03', count: 5 },
    ]);
  });
});
