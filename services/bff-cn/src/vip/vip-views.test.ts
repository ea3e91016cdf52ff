import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { CurrentPlan, SubscriptionStatus } from '@ipdata/proto/billing/v1/billing';
import { describe, expect, it } from 'vitest';
import { vipStatusView } from './vip-views.js';

const vipUntil = (periodEnd: string, status = SubscriptionStatus.SUBSCRIPTION_STATUS_ACTIVE) =>
  CurrentPlan.fromPartial({
    kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP,
    subscription: { planId: 'vip-monthly', status, periodEnd: new Date(periodEnd) },
  });

describe('vipStatusView: VIP until the end of its period', () => {
  it('is VIP up to the last millisecond before period_end, across the year boundary', () => {
    const current = vipUntil('2027-01-01T00:00:00Z');
    expect(vipStatusView(current, new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      is_vip: true,
      plan_id: 'vip-monthly',
      expires_at: '2027-01-01T00:00:00.000Z',
      renews: true,
    });
    expect(vipStatusView(current, new Date('2027-01-01T00:00:00.000Z'))).toEqual({
      is_vip: false,
      plan_id: null,
      expires_at: null,
      renews: false,
    });
  });

  it('keeps a period ending on 1 March through 29 February, also when canceled', () => {
    const canceled = vipUntil('2028-03-01T00:00:00Z', SubscriptionStatus.SUBSCRIPTION_STATUS_CANCELED);
    expect(vipStatusView(canceled, new Date('2028-02-29T23:59:59.999Z'))).toMatchObject({ is_vip: true, renews: false });
    expect(vipStatusView(canceled, new Date('2028-03-01T00:00:00.000Z')).is_vip).toBe(false);
    // Midnight in China (16:00 UTC the day before) does not end it early.
    expect(vipStatusView(vipUntil('2028-03-01T00:00:00Z'), new Date('2028-02-29T16:00:00Z')).is_vip).toBe(true);
  });
});
