import { describe, expect, it } from 'vitest';
import { FailOpenRule } from './quota-fail-open.js';
import { periodOf } from './quota-period.js';
import { QuotaUnavailableError, type QuotaSubject } from './quota.types.js';

const now = new Date('2030-05-15T12:00:00Z');
const paid: QuotaSubject = {
  accountId: 'paid',
  keyId: 'k',
  paid: true,
  includedPerMonth: 10,
  maxPerMonth: 12,
  overageAllowed: true,
  burstPerSecond: 5,
};
const free: QuotaSubject = { ...paid, accountId: 'free', paid: false, maxPerMonth: undefined, overageAllowed: false };
const pending = (subject: QuotaSubject, requestId: string, count: number, partial = false, at: Date = now) => ({
  request: { requestId, subject, count, partial },
  now: at,
  period: periodOf(at),
});

describe('FailOpenRule (Redis did not answer)', () => {
  it('refuses free keys, grants paid keys within the last known cap, and answers a retry alike without granting again', () => {
    const rule = new FailOpenRule();
    rule.remember('paid', '2030-05', 9);
    const settled = rule.apply(
      [pending(free, 'f', 1), pending(paid, 'p1', 2), pending(paid, 'p2', 5, true), pending(paid, 'p3', 1)],
      new Error('down'),
    );
    expect((settled[0] as { error: Error }).error).toBeInstanceOf(QuotaUnavailableError);
    expect(settled.slice(1)).toMatchObject([
      { decision: { granted: 2, used: 11, degraded: true } },
      { decision: { granted: 1, used: 12, degraded: true } },
      { decision: { granted: 0, denied: 'quota_exceeded', degraded: true } },
    ]);
    // The same request again during the outage: the same answer, marked replayed, nothing more granted.
    const [retry] = rule.apply([pending(paid, 'p1', 2)], new Error('down'));
    expect(retry).toEqual({ decision: { ...(settled[1] as { decision: object }).decision, replayed: true } });
    expect({ degraded: rule.degraded, refused: rule.refused }).toEqual({ degraded: 2, refused: 1 });

    // Redis answers again: it decides retries from then on, so the rule judges the id afresh.
    rule.outageOver();
    expect(rule.apply([pending(paid, 'p1', 2)], new Error('down again'))).toMatchObject([
      { decision: { granted: 0, denied: 'quota_exceeded' } },
    ]);
  });

  it('a grant of the outage given back is forgotten and frees its lookups; a grant it did not make is not its to forget', () => {
    const rule = new FailOpenRule();
    rule.remember('paid', '2030-05', 10);
    expect(rule.apply([pending(paid, 'p1', 2)], new Error('down'))).toMatchObject([{ decision: { granted: 2, used: 12 } }]);
    expect(rule.forget('paid', 'p1', 2)).toBe(true);
    expect(rule.forget('paid', 'p1', 2)).toBe(false);
    expect(rule.forget('paid', 'granted-by-redis', 1)).toBe(false);
    // The cap (12) has room for the two given back.
    expect(rule.apply([pending(paid, 'p2', 2)], new Error('down'))).toMatchObject([{ decision: { granted: 2, used: 12 } }]);
  });

  it("counts against the month of each grant: December's cap until its last millisecond, January from zero", () => {
    const rule = new FailOpenRule();
    const lastMs = new Date('2030-12-31T23:59:59.999Z');
    const newYear = new Date('2031-01-01T00:00:00.000Z');
    rule.remember('paid', '2030-12', 11); // the cap is 12
    const settled = rule.apply(
      // In the order they were made, as a batch holds them: the year turns between the second and the third.
      [
        pending(paid, 'dec', 3, true, lastMs),
        pending(paid, 'dec-full', 1, false, lastMs),
        pending(paid, 'jan', 3, false, newYear),
      ],
      new Error('down'),
    );
    expect(settled).toMatchObject([
      { decision: { granted: 1, used: 12, overage: 2, resetAt: new Date('2031-01-01T00:00:00Z'), degraded: true } },
      // Refused until the reset, a millisecond away: Retry-After is never 0.
      { decision: { granted: 0, denied: 'quota_exceeded', retryAfterSeconds: 1 } },
      { decision: { granted: 3, used: 3, overage: 0, remaining: 7, resetAt: new Date('2031-02-01T00:00:00Z'), degraded: true } },
    ]);
    // Each decision carries the instant of its grant (a release counts back in that month and day).
    expect(settled.map((entry) => ('decision' in entry ? entry.decision.at : undefined))).toEqual([lastMs, lastMs, newYear]);
  });

  it('a leap day is its own: a refusal on 29 February waits until 1 March', () => {
    const rule = new FailOpenRule();
    const leapNight = new Date('2028-02-29T23:59:40Z');
    rule.remember('paid', '2028-02', 12);
    const [refused] = rule.apply([pending(paid, 'leap', 1, false, leapNight)], new Error('down'));
    expect(refused).toMatchObject({
      decision: { granted: 0, denied: 'quota_exceeded', resetAt: new Date('2028-03-01T00:00:00Z'), retryAfterSeconds: 20 },
    });
  });
});
