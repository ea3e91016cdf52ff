import { PlanTier, SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { describe, expect, it } from 'vitest';
import { FREE_LIMITS, apiPlanOf, entitlementsOf, type SubscriptionState } from './entitlements.js';

const now = new Date('2030-01-10T00:00:00Z');
function state(kind: SubscriptionKind, tier: PlanTier, extra: Partial<SubscriptionState> = {}): SubscriptionState {
  return {
    accountId: 'a',
    kind,
    subscriptionId: 's',
    change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED,
    planId: 'p',
    tier,
    limits: { ...FREE_LIMITS, lookupsPerMonth: 1_000_000 },
    periodEnd: new Date('2030-02-01T00:00:00Z'),
    eventTime: now,
    eventId: 'e',
    ...extra,
  };
}

describe('entitlements (the auth list and payService)', () => {
  it('gives api:free and no paid services without subscriptions', () => {
    expect(entitlementsOf([], { partner: false, now })).toEqual({ auth: ['api:free'], payService: [] });
    expect(apiPlanOf([], now)).toMatchObject({ tier: PlanTier.PLAN_TIER_FREE, limits: { lookupsPerMonth: 50_000 } });
  });

  it('lists every active entitlement and the paid kinds', () => {
    const states = [
      state(SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS, PlanTier.PLAN_TIER_BUSINESS),
      state(SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD, PlanTier.PLAN_TIER_STANDARD),
      state(SubscriptionKind.SUBSCRIPTION_KIND_VIP, PlanTier.PLAN_TIER_STANDARD),
    ];
    expect(entitlementsOf(states, { partner: true, now })).toEqual({
      auth: ['api:business', 'download:standard', 'vip', 'partner'],
      payService: ['api', 'download', 'vip'],
    });
    expect(apiPlanOf(states, now).tier).toBe(PlanTier.PLAN_TIER_BUSINESS);
  });

  it('drops canceled and ended subscriptions; a free API plan is no paid service', () => {
    const states = [
      state(SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS, PlanTier.PLAN_TIER_FREE),
      state(SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD, PlanTier.PLAN_TIER_BUSINESS, {
        change: SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED,
      }),
      state(SubscriptionKind.SUBSCRIPTION_KIND_VIP, PlanTier.PLAN_TIER_STANDARD, { periodEnd: new Date('2030-01-01T00:00:00Z') }),
    ];
    expect(entitlementsOf(states, { partner: false, now })).toEqual({ auth: ['api:free'], payService: [] });
  });

  it('keeps a paid period to its last millisecond: across the year boundary and through 29 February', () => {
    const yearly = [
      state(SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS, PlanTier.PLAN_TIER_BUSINESS, {
        periodEnd: new Date('2027-01-01T00:00:00Z'),
      }),
    ];
    expect(apiPlanOf(yearly, new Date('2026-12-31T23:59:59.999Z')).tier).toBe(PlanTier.PLAN_TIER_BUSINESS);
    expect(apiPlanOf(yearly, new Date('2027-01-01T00:00:00.000Z'))).toMatchObject({
      tier: PlanTier.PLAN_TIER_FREE,
      periodEnd: undefined,
    });
    const vip = [
      state(SubscriptionKind.SUBSCRIPTION_KIND_VIP, PlanTier.PLAN_TIER_STANDARD, { periodEnd: new Date('2028-03-01T00:00:00Z') }),
    ];
    expect(entitlementsOf(vip, { partner: false, now: new Date('2028-02-29T23:59:59.999Z') }).auth).toContain('vip');
    expect(entitlementsOf(vip, { partner: false, now: new Date('2028-03-01T00:00:00.000Z') }).auth).not.toContain('vip');
  });
});
