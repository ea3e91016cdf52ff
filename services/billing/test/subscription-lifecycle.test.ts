import { ScheduledChange, SubscriptionStatus } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedPreconditionError } from '@ipdata/common';
import { BillingHarness, pressCheckoutButton } from './fixtures/billing-harness.js';

const API = SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS;
const VIP = SubscriptionKind.SUBSCRIPTION_KIND_VIP;
const DAY = 24 * 3600_000;

describe('billing: upgrades now, downgrades, cancellations and renewals at period end (injectable clock)', () => {
  const harness = new BillingHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  async function buy(account: string, planId: string): Promise<string> {
    const { order } = await harness.api.subscribe(account, planId);
    const { answer } = await pressCheckoutButton(order!.checkoutUrl, 'pay');
    expect(answer.status).toBe(303);
    return order!.id;
  }

  /** Waits for the account's n-th event of a kind and returns that kind's events. */
  const eventsOf = (account: string, kind: SubscriptionKind, count: number) => harness.waitForChanges(account, count, kind);

  const apiPlan = async (account: string) => (await harness.api.getCurrentPlans(account)).plans.find((p) => p.kind === API);

  it('upgrades at once after payment, restarting the period at payment time', async () => {
    const account = await harness.newAccount();
    await buy(account, 'api-standard-monthly');
    harness.clock.advance(10 * DAY);
    const upgradedAt = harness.clock.now();
    await buy(account, 'api-business-monthly');
    const events = await eventsOf(account, API, 3);
    expect(events[2]).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_UPGRADED,
      planId: 'api-business-monthly',
      periodStart: upgradedAt,
      periodEnd: new Date(upgradedAt.getTime() + 31 * DAY),
      limits: { lookupsPerMonth: 1_500_000 },
    });
    expect((await apiPlan(account))?.plan?.id).toBe('api-business-monthly');
  });

  it('schedules a downgrade and applies it when the clock passes the period end', async () => {
    const account = await harness.newAccount();
    await buy(account, 'api-business-monthly');
    const { subscription } = await harness.api.scheduleDowngrade(account, 'api-standard-monthly');
    expect(subscription).toMatchObject({
      planId: 'api-business-monthly',
      scheduledChange: ScheduledChange.SCHEDULED_CHANGE_DOWNGRADE,
      scheduledPlanId: 'api-standard-monthly',
    });
    const periodEnd = subscription!.periodEnd!;
    const scheduled = await eventsOf(account, API, 3);
    expect(scheduled[2]).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_DOWNGRADE_SCHEDULED,
      planId: 'api-business-monthly',
    });

    harness.clock.set(new Date(periodEnd.getTime() - 1));
    await harness.service.sweeper.runOnce();
    expect((await apiPlan(account))?.plan?.id).toBe('api-business-monthly');

    harness.clock.set(periodEnd);
    await harness.service.sweeper.runOnce();
    const current = await apiPlan(account);
    expect(current?.subscription).toMatchObject({
      planId: 'api-standard-monthly',
      periodStart: periodEnd,
      scheduledChange: ScheduledChange.SCHEDULED_CHANGE_NONE,
    });
    const events = await eventsOf(account, API, 4);
    expect(events[3]).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_DOWNGRADED,
      planId: 'api-standard-monthly',
      periodStart: periodEnd,
      limits: { lookupsPerMonth: 250_000 },
    });
  });

  it('cancels at period end and falls back to FREE', async () => {
    const account = await harness.newAccount();
    await buy(account, 'api-standard-yearly');
    const { subscription } = await harness.api.cancelSubscription(account, API);
    expect(subscription?.scheduledChange).toBe(ScheduledChange.SCHEDULED_CHANGE_CANCEL);
    const periodEnd = subscription!.periodEnd!;
    expect(periodEnd.getTime() - subscription!.periodStart!.getTime()).toBeGreaterThanOrEqual(365 * DAY);
    expect((await eventsOf(account, API, 3))[2]?.change).toBe(SubscriptionChange.SUBSCRIPTION_CHANGE_CANCEL_SCHEDULED);

    harness.clock.set(new Date(periodEnd.getTime() + 1_000));
    await harness.service.sweeper.runOnce();
    const current = await apiPlan(account);
    expect(current?.plan?.id).toBe('api-free');
    expect(current?.subscription).toMatchObject({ periodStart: periodEnd, periodEnd: undefined });
    const events = await eventsOf(account, API, 4);
    expect(events[3]).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED,
      planId: 'api-free',
      limits: { lookupsPerMonth: 50_000 },
    });
    // Nothing left to cancel on FREE.
    await expect(harness.api.cancelSubscription(account, API)).rejects.toBeInstanceOf(FailedPreconditionError);
  });

  it('renews a paid plan at period end, once per elapsed period', async () => {
    const account = await harness.newAccount();
    await buy(account, 'api-standard-monthly');
    const start = harness.clock.now();
    harness.clock.set(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 2, start.getUTCDate(), 13)));
    await harness.service.sweeper.runOnce();
    const events = await eventsOf(account, API, 4);
    expect(events.slice(2).map((event) => SubscriptionChange[event.change])).toEqual([
      'SUBSCRIPTION_CHANGE_RENEWED',
      'SUBSCRIPTION_CHANGE_RENEWED',
    ]);
    expect(events[3]?.periodStart).toEqual(events[2]?.periodEnd);
    expect((await apiPlan(account))?.subscription?.periodEnd?.getTime()).toBeGreaterThan(harness.clock.now().getTime());
  });

  it('refuses a downgrade that is not lower and a downgrade without a paid plan', async () => {
    const account = await harness.newAccount();
    await expect(harness.api.scheduleDowngrade(account, 'api-free')).rejects.toBeInstanceOf(FailedPreconditionError);
    await buy(account, 'api-standard-monthly');
    await expect(harness.api.scheduleDowngrade(account, 'api-business-monthly')).rejects.toThrow(/not lower/);
    // Yearly is above monthly within a tier.
    await buy(account, 'api-standard-yearly');
    expect((await harness.api.scheduleDowngrade(account, 'api-standard-monthly')).subscription?.scheduledPlanId).toBe(
      'api-standard-monthly',
    );
  });

  it("sells face A's VIP through the same checkout and ends it on cancel", async () => {
    const account = await harness.newAccount();
    await buy(account, 'vip-monthly');
    const created = await eventsOf(account, VIP, 1);
    expect(created[0]).toMatchObject({ change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED, planId: 'vip-monthly' });
    const vip = (await harness.api.getCurrentPlans(account)).plans.find((plan) => plan.kind === VIP);
    expect(vip?.subscription?.status).toBe(SubscriptionStatus.SUBSCRIPTION_STATUS_ACTIVE);

    const { subscription } = await harness.api.cancelSubscription(account, VIP);
    harness.clock.set(subscription!.periodEnd!);
    await harness.service.sweeper.runOnce();
    const events = await eventsOf(account, VIP, 3);
    expect(events[2]).toMatchObject({ change: SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED, limits: { lookupsPerMonth: 0 } });
    expect((await harness.api.getCurrentPlans(account)).plans.some((plan) => plan.kind === VIP)).toBe(false);

    await buy(account, 'vip-yearly');
    const again = await eventsOf(account, VIP, 4);
    expect(again[3]).toMatchObject({ change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED, planId: 'vip-yearly' });
  });
});
