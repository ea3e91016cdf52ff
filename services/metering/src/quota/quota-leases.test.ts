import { describe, expect, it } from 'vitest';
import { QuotaLeases } from './quota-leases.js';
import type { PendingReservation } from './quota-decision.js';
import { periodOf } from './quota-period.js';
import type { LeaseRoundAnswer } from './quota.ports.js';
import type { QuotaSubject } from './quota.types.js';

const now = new Date('2030-05-15T12:00:00.250Z');
const who: QuotaSubject = {
  accountId: 'acc-1',
  keyId: 'key-1',
  paid: false,
  includedPerMonth: 100_000,
  maxPerMonth: undefined,
  overageAllowed: false,
  burstPerSecond: 0,
};

function pending(count = 1, subject: QuotaSubject = who, at: Date = now): PendingReservation {
  return { request: { requestId: 'r', subject, count, partial: false }, now: at, period: periodOf(at) };
}

/**
 * The leases' monotonic time (how long a lease is used), moved by the tests only: a slow
 * machine between a round and a grant does not run a lease out here.
 */
let monotonic = 0;
const leasesWith = (options: ConstructorParameters<typeof QuotaLeases>[0] = {}) =>
  new QuotaLeases({ monotonicMs: () => monotonic, ...options });

const answer = (leased: number, used: number, renewed = true, slots: number[] = []): LeaseRoundAnswer => ({
  leased,
  renewed,
  used,
  slots,
});

/** Leases that asked for 100 lookups after one grant and hold them: the start of most tests here. */
function holdingLease(at: Date = now): QuotaLeases {
  const leases = leasesWith({ minRequests: 1, minLookups: 100 });
  leases.grant(pending(1, who, at));
  leases.settle(leases.nextRound(at), [answer(100, 1)]);
  return leases;
}

describe('QuotaLeases', () => {
  it('asks for a lease sized to recent demand, grants from it, and settles what it granted by day and key', () => {
    const leases = leasesWith({ minRequests: 3, minLookups: 10 });
    for (let i = 0; i < 4; i++) expect(leases.grant(pending(2))).toBeUndefined();
    const first = leases.nextRound(now);
    expect(first.commands).toEqual([
      expect.objectContaining({ accountId: 'acc-1', month: '2030-05', ceiling: 100_000, want: 24, hold: 0, settled: 0 }),
    ]);
    leases.settle(first, [answer(24, 8)]);
    const granted = [leases.grant(pending(10)), leases.grant(pending(10)), leases.grant(pending(10))];
    expect(granted.map((decision) => decision?.granted)).toEqual([10, 10, undefined]);
    expect(granted[1]).toMatchObject({ leased: true, used: 28, remaining: 99_972 });
    expect(leases.unsettled('acc-1')).toBe(20);
    const second = leases.nextRound(now);
    expect(second.commands[0]).toMatchObject({
      settled: 20,
      hold: 4,
      accountDays: [['2030-05-15', 20]],
      keyDays: [['key-1', '2030-05-15', 20]],
    });
  });

  it('what is granted while a round is in flight comes out of the lease the round brings back', () => {
    const leases = holdingLease();
    expect(leases.grant(pending(30))?.granted).toBe(30);
    const round = leases.nextRound(now); // sent: hold 70, settled 30
    expect(round.commands[0]).toMatchObject({ hold: 70, settled: 30 });
    expect(leases.grant(pending(50))?.granted).toBe(50); // while in flight
    leases.settle(round, [answer(100, 31)]);
    // The store holds 100 for this process; 50 of them were granted meanwhile.
    expect(leases.grant(pending(51))).toBeUndefined();
    expect(leases.grant(pending(50))?.granted).toBe(50);
    expect(leases.unsettled('acc-1')).toBe(100);
  });

  it('a refused renewal stops the lease, and the next round gives back what the store still holds', () => {
    const leases = holdingLease();
    leases.grant(pending(5));
    const round = leases.nextRound(now);
    // The store kept 95 (what could be granted while the round was in flight) but renewed nothing.
    leases.settle(round, [answer(95, 6, false)]);
    const giveBack = leases.nextRound(now);
    expect(giveBack.commands).toEqual([expect.objectContaining({ want: 0, hold: 0, settled: 0 })]);
    leases.settle(giveBack, [answer(0, 6, false)]);
    expect(leases.nextRound(now).commands).toEqual([]);
    expect(leases.grant(pending())).toBeUndefined();
  });

  it('a lease given back while its round is in flight is not used when the round answers, and goes back next', () => {
    const leases = holdingLease();
    leases.grant(pending());
    const round = leases.nextRound(now);
    leases.giveBack('acc-1'); // e.g. shutdown, or a reservation here waits for leased lookups
    leases.settle(round, [answer(100, 2)]);
    expect(leases.grant(pending())).toBeUndefined();
    expect(leases.nextRound(now).commands[0]).toMatchObject({ want: 0, hold: 0 });
  });

  it('a failed round counts its grants in the next one; a plan change stops the lease until the next round', () => {
    const leases = holdingLease();
    leases.grant(pending(7));
    const failed = leases.nextRound(now);
    leases.roundFailed(failed);
    leases.grant(pending(3));
    expect(leases.nextRound(now).commands[0]).toMatchObject({ settled: 10, accountDays: [['2030-05-15', 10]] });

    const upgraded = { ...who, includedPerMonth: 200_000 };
    expect(leases.grant(pending(1, upgraded))).toBeUndefined();
    expect(leases.nextRound(now).commands[0]).toMatchObject({ ceiling: 200_000 });
  });

  it('burst slots: asked for this second and the next at the recent rate, a grant needs one of the current second', () => {
    const leases = leasesWith({ minRequests: 2, minLookups: 10, intervalMs: 100 });
    const limited = { ...who, burstPerSecond: 1_000 };
    for (let i = 0; i < 10; i++) leases.grant(pending(1, limited));
    const round = leases.nextRound(now);
    // 10 requests in 100 ms = 100/s: 0.75 s of this second and all of the next, × 1.5.
    const second = Math.floor(now.getTime() / 1000);
    expect(round.commands[0]?.slots).toEqual([
      { keyId: 'key-1', burstPerSecond: 1_000, second, want: 113 },
      { keyId: 'key-1', burstPerSecond: 1_000, second: second + 1, want: 150 },
    ]);
    leases.settle(round, [answer(30, 10, true, [2, 150])]);
    expect(leases.grant(pending(1, limited))?.granted).toBe(1);
    expect(leases.grant(pending(1, limited))?.granted).toBe(1);
    expect(leases.grant(pending(1, limited))).toBeUndefined(); // no slot left in this second
  });

  it('a lease is used for 80% of its time in the store after its round was sent, then not any more', () => {
    const leases = holdingLease(); // ttlMs 1,000 (the default): used for 800 ms after the round was sent
    monotonic += 800;
    expect(leases.grant(pending())?.granted).toBe(1);
    monotonic += 1;
    expect(leases.grant(pending())).toBeUndefined();
    // What it granted is still counted; nothing is held any more.
    expect(leases.nextRound(now).commands[0]).toMatchObject({ hold: 0, settled: 1 });
  });

  it("a December lease is not used in January: its grants count in December's month and day, then January leases afresh", () => {
    const lastMs = new Date('2030-12-31T23:59:59.999Z');
    const newYear = new Date('2031-01-01T00:00:00.000Z');
    const leases = holdingLease(lastMs);
    expect(leases.grant(pending(5, who, lastMs))).toMatchObject({
      granted: 5,
      leased: true,
      resetAt: new Date('2031-01-01T00:00:00Z'),
    });
    // A millisecond later the year has turned: the store decides, in January.
    expect(leases.grant(pending(1, who, newYear))).toBeUndefined();
    const round = leases.nextRound(newYear);
    expect(round.commands).toEqual([
      expect.objectContaining({
        month: '2030-12',
        want: 0,
        settled: 5,
        accountDays: [['2030-12-31', 5]],
        keyDays: [['key-1', '2030-12-31', 5]],
      }),
    ]);
    leases.settle(round, [answer(0, 6, false)]);
    expect(leases.grant(pending(1, who, newYear))).toBeUndefined();
    // Nothing left of December: forgotten; the next round asks for a January lease.
    expect(leases.nextRound(newYear).commands).toEqual([]);
    leases.grant(pending(1, who, newYear));
    expect(leases.nextRound(newYear).commands).toEqual([
      expect.objectContaining({ month: '2031-01', want: 100, hold: 0, settled: 0 }),
    ]);
  });

  it('a leap-day grant given back after midnight is taken back on 29 February, in February', () => {
    const leapNight = new Date('2028-02-29T23:59:40Z');
    const march = new Date('2028-03-01T00:00:20Z');
    const leases = holdingLease(leapNight);
    expect(leases.grant(pending(4, who, leapNight))).toMatchObject({ granted: 4, resetAt: new Date('2028-03-01T00:00:00Z') });
    // The lookup failed after midnight: given back on the day of its grant (QuotaService passes the grant's day).
    expect(leases.giveBackGranted(who, periodOf(leapNight).day, 4)).toBe(true);
    expect(leases.grant(pending(1, who, march))).toBeUndefined();
    expect(leases.nextRound(march).commands[0]).toMatchObject({
      month: '2028-02',
      want: 0,
      settled: 0,
      accountDays: [['2028-02-29', 0]],
    });
  });
});
