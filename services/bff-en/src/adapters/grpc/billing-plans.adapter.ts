import { callUnary } from '@ipdata/common';
import type { BillingServiceClient } from '@ipdata/proto/billing/v1/billing';
import { BillingInterval, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { DownloadPlan, DownloadPlans } from '../../databases/databases.ports.js';

/**
 * Billing's data-download plans from ListPlans, kept for `ttlMs`: the catalogue is a file billing
 * reads at start, so it changes only with a billing restart, and a 403 should not wait on billing.
 * A failed call is not cached (the next caller asks again).
 */
export class GrpcDownloadPlans implements DownloadPlans {
  private cached: { plans: Promise<DownloadPlan[]>; at: number } | undefined;

  constructor(
    private readonly client: BillingServiceClient,
    private readonly options: { ttlMs?: number; deadlineMs?: number; now?: () => number } = {},
  ) {}

  downloadPlans(): Promise<DownloadPlan[]> {
    const now = (this.options.now ?? Date.now)();
    if (this.cached && now - this.cached.at < (this.options.ttlMs ?? 60_000)) return this.cached.plans;
    const plans = this.fetch();
    const entry = { plans, at: now };
    this.cached = entry;
    plans.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return plans;
  }

  private async fetch(): Promise<DownloadPlan[]> {
    const response = await callUnary(
      this.client.listPlans.bind(this.client),
      { kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD, interval: BillingInterval.BILLING_INTERVAL_UNSPECIFIED },
      undefined,
      { deadline: Date.now() + (this.options.deadlineMs ?? 1_000) },
    );
    return response.plans
      .filter((plan) => plan.kind === SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD)
      .map((plan) => ({
        id: plan.id,
        name: plan.name,
        tier: plan.tier,
        monthlyPriceMinor:
          plan.interval === BillingInterval.BILLING_INTERVAL_YEARLY ? Math.round(plan.priceMinor / 12) : plan.priceMinor,
        datasets: plan.limits?.downloadableDatasets ?? [],
      }));
  }
}
