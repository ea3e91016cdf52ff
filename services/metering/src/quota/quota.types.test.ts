import { PlanLimits, PlanTier } from '@ipdata/proto/events/v1/billing';
import { describe, expect, it } from 'vitest';
import { daysOfMonthSoFar, periodOf, secondsUntil } from './quota-period.js';
import { monthlyCeiling, quotaSubjectOf } from './quota.types.js';

const key = (tier: PlanTier, limits: Partial<PlanLimits>) => ({
  accountId: 'acc',
  keyId: 'key',
  tier,
  planId: 'p',
  limits: PlanLimits.fromPartial(limits),
  periodEnd: undefined,
});

describe('quotaSubjectOf (plan limits → quota rules)', () => {
  it('free: hard stop at the included amount, default burst when the plan has none', () => {
    const subject = quotaSubjectOf(key(PlanTier.PLAN_TIER_FREE, { lookupsPerMonth: 50_000, maxLookupsPerMonth: 90_000 }), {
      burstPerSecond: 25,
    });
    expect(subject).toEqual({
      accountId: 'acc',
      keyId: 'key',
      paid: false,
      includedPerMonth: 50_000,
      maxPerMonth: undefined,
      overageAllowed: false,
      burstPerSecond: 25,
    });
    expect(monthlyCeiling(subject)).toBe(50_000);
  });

  it('paid with overage: continues to the cap, or without limit when there is none', () => {
    const capped = quotaSubjectOf(
      key(PlanTier.PLAN_TIER_BUSINESS, {
        lookupsPerMonth: 100,
        overagePricePer1kMinor: 30,
        maxLookupsPerMonth: 150,
        burstPerSecond: 7,
      }),
      { burstPerSecond: 25 },
    );
    expect(capped).toMatchObject({ paid: true, overageAllowed: true, maxPerMonth: 150, burstPerSecond: 7 });
    expect(monthlyCeiling(capped)).toBe(150);
    const open = quotaSubjectOf(key(PlanTier.PLAN_TIER_ENTERPRISE, { lookupsPerMonth: 100, overagePricePer1kMinor: 15 }), {
      burstPerSecond: 25,
    });
    expect(monthlyCeiling(open)).toBe(-1);
    const noOverage = quotaSubjectOf(key(PlanTier.PLAN_TIER_STANDARD, { lookupsPerMonth: 100, maxLookupsPerMonth: 500 }), {
      burstPerSecond: 25,
    });
    expect(noOverage).toMatchObject({ paid: true, overageAllowed: false, maxPerMonth: undefined });
    expect(monthlyCeiling(noOverage)).toBe(100);
  });
});

describe('quota periods (UTC calendar months)', () => {
  it('names month, day and second, and resets at the first instant of the next month', () => {
    expect(periodOf(new Date('2030-12-31T23:59:59.999Z'))).toEqual({
      month: '2030-12',
      day: '2030-12-31',
      second: Math.floor(Date.parse('2030-12-31T23:59:59.999Z') / 1000),
      resetAt: new Date('2031-01-01T00:00:00.000Z'),
    });
    expect(periodOf(new Date('2032-02-29T10:00:00Z')).resetAt).toEqual(new Date('2032-03-01T00:00:00Z'));
    expect(daysOfMonthSoFar(new Date('2030-03-03T05:00:00Z'))).toEqual(['2030-03-01', '2030-03-02', '2030-03-03']);
    expect(secondsUntil(new Date('2030-03-03T00:00:00Z'), new Date('2030-03-03T00:00:00.200Z'))).toBe(1);
    expect(secondsUntil(new Date('2030-03-31T23:00:00Z'), new Date('2030-04-01T00:00:00Z'))).toBe(3600);
  });
});
