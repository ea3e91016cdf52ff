import { randomUUID } from 'node:crypto';
import { BillingInterval, PlanTier, SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoConnection } from '@ipdata/common';
import { MongoKnownAccounts } from '../src/adapters/mongo/known-accounts.store.js';
import { BillingHarness, logger } from './fixtures/billing-harness.js';

describe('billing: plan catalogue, FREE plans for new accounts, health', () => {
  const harness = new BillingHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('answers /healthz and /readyz and reports the gRPC service SERVING', async () => {
    const base = `http://127.0.0.1:${harness.service.ports().health}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { mongo: true, 'kafka-producer': true } });
  });

  it('lists the catalogue for the pricing page: tabs by kind, monthly/yearly, yearly cheaper, Enterprise by sales', async () => {
    const all = await harness.api.listPlans();
    const byId = new Map(all.plans.map((plan) => [plan.id, plan]));
    expect(byId.get('api-free')).toMatchObject({
      tier: PlanTier.PLAN_TIER_FREE,
      priceMinor: 0,
      cardRequired: false,
      limits: { lookupsPerMonth: 50_000, supportLevel: 'basic' },
    });
    expect(byId.get('api-standard-monthly')).toMatchObject({ cardRequired: true, limits: { supportLevel: 'priority' } });
    expect(byId.get('api-standard-yearly')!.priceMinor).toBeLessThan(12 * byId.get('api-standard-monthly')!.priceMinor);
    expect(byId.get('api-enterprise-monthly')).toMatchObject({ selfCheckout: false });
    expect(byId.get('download-business-monthly')!.limits!.downloadableDatasets).toEqual(['geolocation', 'privacy', 'asn']);
    for (const plan of all.plans) expect(Number.isInteger(plan.priceMinor)).toBe(true);

    const yearlyApi = await harness.api.listPlans({
      kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS,
      interval: BillingInterval.BILLING_INTERVAL_YEARLY,
    });
    expect(yearlyApi.plans.map((plan) => plan.id)).toEqual([
      'api-free',
      'api-standard-yearly',
      'api-business-yearly',
      'api-enterprise-yearly',
    ]);
  });

  it('gives a newly registered account FREE API access and FREE download, and says so on billing.subscription.v1', async () => {
    const account = randomUUID();
    const before = await harness.api.getCurrentPlans(account);
    expect(before.plans.map((plan) => [plan.plan?.id, plan.subscription])).toEqual([
      ['api-free', undefined],
      ['download-free', undefined],
    ]);

    await harness.register(account);
    const changes = await harness.waitForChanges(account, 2);
    const api = changes.find((change) => change.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS);
    expect(api).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED,
      planId: 'api-free',
      tier: PlanTier.PLAN_TIER_FREE,
      limits: { lookupsPerMonth: 50_000, overagePricePer1kMinor: 0, currency: 'USD', supportLevel: 'basic' },
      periodStart: harness.clock.now(),
      periodEnd: undefined,
    });
    expect(api?.meta?.source).toBe('billing');
    const download = changes.find((change) => change.kind === SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD);
    expect(download).toMatchObject({ planId: 'download-free', limits: { downloadableDatasets: ['asn'] } });

    const current = await harness.api.getCurrentPlans(account);
    expect(current.plans.map((plan) => [plan.plan?.id, plan.subscription?.id])).toEqual([
      ['api-free', api?.subscriptionId],
      ['download-free', download?.subscriptionId],
    ]);
  });

  it('handles a re-delivered REGISTERED event once', async () => {
    const account = randomUUID();
    await harness.register(account);
    await harness.register(account);
    // A later account's events show the consumer is past both copies.
    const marker = randomUUID();
    await harness.register(marker);
    await harness.waitForChanges(marker, 2);
    await harness.waitForChanges(account, 2);
    expect(await harness.changesFor(account)).toHaveLength(2);
  });

  it('subscribes a known account without a FREE plan (registration interrupted halfway) to FREE at once, without an order', async () => {
    const account = randomUUID();
    // What an interrupted registerAccount leaves: the account is known, its FREE plans are not written.
    const mongo = MongoConnection.fromConfig({ url: harness.mongoUrl }, logger);
    await mongo.start();
    try {
      await new MongoKnownAccounts(mongo.connection).remember(account, harness.clock.now());
    } finally {
      await mongo.shutdown();
    }
    const { order, subscription } = await harness.api.subscribe(account, 'api-free');
    expect(order).toBeUndefined();
    expect(subscription).toMatchObject({ accountId: account, planId: 'api-free', periodEnd: undefined });
    const [created] = await harness.waitForChanges(account, 1);
    expect(created).toMatchObject({ change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED, planId: 'api-free' });
    // Only the kind asked for: no download subscription was created.
    expect((await harness.api.getCurrentPlans(account)).plans[1]?.subscription).toBeUndefined();
  });
});
