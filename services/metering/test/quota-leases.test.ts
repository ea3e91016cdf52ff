import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Clock } from '@ipdata/common';
import { ManualClock, uniqueName, waitFor } from '@ipdata/common/testing';
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
import type { QuotaLeaseOptions } from '../src/quota/quota-leases.js';
import { quotaSubject, quotaSuite } from './fixtures/quota-harness.js';
import { runReservers, sum } from './fixtures/quota-reservers.js';
import { runningClockFrom } from './fixtures/running-clock.js';

const logger = pino({ level: 'silent' });
const LEASE_TTL_MS = 400;
// The services' clock: it runs (burst seconds pass, leases are renewed), from the middle of a
// month, so the month and day the counters are read under are the ones the grants went to.
const START = new Date('2030-05-15T12:00:00Z');
const clock = runningClockFrom(START);

const subject = (overrides: Partial<QuotaSubject> = {}) => quotaSubject({ includedPerMonth: 100_000, ...overrides });

/** `waves` rounds of `concurrency` reservations of one lookup, `gapMs` apart; every decision, in order. */
async function reserveInWaves(
  service: QuotaService,
  who: QuotaSubject,
  waves: number,
  concurrency: number,
  gapMs = 2,
): Promise<QuotaDecision[]> {
  const all: QuotaDecision[] = [];
  for (let wave = 0; wave < waves; wave++) {
    const decisions = await Promise.all(
      Array.from({ length: concurrency }, (_, i) =>
        service.reserve({ requestId: `w${wave}-${i}`, subject: who, count: 1, partial: false }),
      ),
    );
    all.push(...decisions);
    await sleep(gapMs);
  }
  return all;
}

describe('quota leases on real Redis: far from the limit without a store call, exact at it', () => {
  const { redis, prefix, keep, reserverEnv } = quotaSuite('quota-lease-test');

  async function quotaService(leases: QuotaLeaseOptions | undefined, serviceClock: Clock = clock) {
    const service = QuotaService.create({
      store: new RedisQuotaStore(redis, { keyPrefix: prefix, recallMs: LEASE_TTL_MS }),
      clock: serviceClock,
      logger,
      deadlineMs: 5_000,
      ...(leases === undefined ? {} : { leases: { ttlMs: LEASE_TTL_MS, minRequests: 2, minLookups: 10, ...leases } }),
    });
    await service.start();
    keep(service);
    return service;
  }

  const counter = async (key: string) => Number(await redis.get(key));

  it('an active account is served from its lease: few store calls, and every counter exact once the lease is settled', async () => {
    const service = await quotaService({ intervalMs: 20 });
    const who = subject();
    const secondKey = { ...who, keyId: uniqueName('key') };
    const decisions = [...(await reserveInWaves(service, who, 60, 20)), ...(await reserveInWaves(service, secondKey, 20, 10))];
    expect(decisions.every((decision) => decision.granted === 1)).toBe(true);
    const { leaseGrants, scriptCalls, leaseRounds } = service.stats;
    // Most reservations never reached Redis on their own: 1,400 of them in far fewer store calls.
    expect(leaseGrants).toBeGreaterThan(700);
    expect(scriptCalls).toBeLessThan(200);
    expect(leaseRounds).toBeGreaterThan(0);
    const leased = decisions.filter((decision) => decision.leased === true);
    expect(leased.length).toBe(leaseGrants);
    // status() counts this process's own lease grants first: a caller reads its own requests.
    const status = await service.status(who);
    expect(status.used).toBe(1_400);
    const { month, day } = periodOf(clock.now());
    expect(await counter(quotaMonthKey(prefix, who.accountId, month))).toBe(1_400);
    expect(await counter(quotaAccountDayKey(prefix, who.accountId, day))).toBe(1_400);
    expect(await counter(quotaKeyDayKey(prefix, who.keyId, day))).toBe(1_200);
    expect(await counter(quotaKeyDayKey(prefix, secondKey.keyId, day))).toBe(200);
    // Stopping gives the leases back.
    await service.shutdown();
    expect(await redis.exists(`${prefix}l:${who.accountId}:${month}`)).toBe(0);
    expect(await counter(quotaMonthKey(prefix, who.accountId, month))).toBe(1_400);
  });

  it('3 processes with leases × 1,500 reservations for an account allowing 3,000 → exactly 3,000 granted', async () => {
    const who = subject();
    const results = await runReservers(3, {
      ...reserverEnv(who),
      INCLUDED: '3000',
      CONCURRENCY: '20',
      WAVES: '75',
      WAVE_GAP_MS: '3',
      LEASE_INTERVAL_MS: '20',
      CLOCK_START: START.toISOString(),
    });
    expect(sum(results, 'granted')).toBe(3_000);
    expect(sum(results, 'denied')).toBe(1_500);
    // Leases served a good share while the account was far from its limit.
    expect(sum(results, 'leaseGrants')).toBeGreaterThan(300);
    const { month, day } = periodOf(clock.now());
    expect(await counter(quotaMonthKey(prefix, who.accountId, month))).toBe(3_000);
    expect(await counter(quotaKeyDayKey(prefix, who.keyId, day))).toBe(3_000);
  }, 120_000);

  it("a reservation that only fails because of another process's lease waits for it to come back, then is decided exactly", async () => {
    // Rounds run by hand here (the timer's interval is longer than the test), so demand is as counted.
    const holder = await quotaService({ intervalMs: 60_000 });
    const other = await quotaService(undefined);
    const who = subject({ includedPerMonth: 1_000 });
    await reserveInWaves(holder, who, 3, 4);
    await holder.runLeaseRound();
    const fromLease = await holder.reserve({ requestId: 'leased', subject: who, count: 1, partial: false });
    expect(fromLease).toMatchObject({ granted: 1, leased: true });
    const { month } = periodOf(clock.now());
    const leasedNow = await redis.hgetall(`${prefix}l:${who.accountId}:${month}`);
    expect(Object.keys(leasedNow)).toHaveLength(1);

    // 13 granted and at least 10 more leased to the holder: 980 fits in the month only once that lease is back.
    const waiting = other.reserve({ requestId: 'big-batch', subject: who, count: 980, partial: true });
    await waitFor(() => other.stats.leaseWaits > 0, { what: 'the batch waiting for the lease' });
    // The recall stops the renewal: the holder keeps only what it might grant meanwhile, then gives that back.
    await holder.runLeaseRound();
    await holder.runLeaseRound();
    const batch = await waiting;
    expect(batch).toMatchObject({ granted: 980, used: 993 });
    // The rest of the month is exact too: 7 left.
    const rest = await other.reserve({ requestId: 'rest', subject: who, count: 100, partial: true });
    expect(rest).toMatchObject({ granted: 7, used: 1_000 });
    expect(await other.reserve({ requestId: 'none', subject: who, count: 1, partial: false })).toMatchObject({
      granted: 0,
      denied: 'quota_exceeded',
    });
    await holder.shutdown();
    expect(await counter(quotaMonthKey(prefix, who.accountId, month))).toBe(1_000);
  });

  it('burst slots are leased too: never more than burstPerSecond grants in any second of the key', async () => {
    // The seconds are the service clock's, moved by the test: each one gets 10 waves of 10
    // reservations, twice the key's burst, however long the machine takes for them (rounds and
    // leases keep running in real time meanwhile).
    const seconds = new ManualClock(START);
    const service = await quotaService({ intervalMs: 20 }, seconds);
    const who = subject({ burstPerSecond: 50 });
    const decisions: QuotaDecision[] = [];
    for (let second = 0; second < 25; second++) {
      for (let wave = 0; wave < 10; wave++) {
        decisions.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              service.reserve({ requestId: `s${second}-${wave}-${i}`, subject: who, count: 1, partial: false }),
            ),
          )),
        );
        await sleep(4);
      }
      seconds.advance(1_000);
    }
    const perSecond = new Map<number, number>();
    for (const decision of decisions) {
      if (decision.granted !== 1) continue;
      const second = Math.floor((decision.at as Date).getTime() / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(50);
    expect(decisions.some((decision) => decision.denied === 'burst_exceeded')).toBe(true);
    expect(decisions.some((decision) => decision.leased === true)).toBe(true);
    // Reservations that waited for nothing: the seconds are used, not left to leased slots nobody takes.
    expect(Math.max(...perSecond.values())).toBeGreaterThan(25);
  });

  it('a lookup given back after a leased grant is not counted', async () => {
    const service = await quotaService({ intervalMs: 60_000 });
    const who = subject();
    await reserveInWaves(service, who, 10, 10);
    await service.runLeaseRound();
    const leased = await service.reserve({ requestId: 'to-release', subject: who, count: 1, partial: false });
    expect(leased.leased).toBe(true);
    await service.release(who, 'to-release', 1, leased.at as Date, true);
    expect((await service.status(who)).used).toBe(100);
    expect(service.stats.released).toBe(1);
  });
});
