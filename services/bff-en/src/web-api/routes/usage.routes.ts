import { z } from 'zod';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { monthToDate, quotaSubjectOfPlan, type QuotaService } from '@ipdata/metering';
import { text } from '../web-input.js';
import { defineWebRoute, type WebRoute } from '../web-route.js';
import type { UsageSeries, WebBilling } from '../web-api.ports.js';
import { planView } from '../web-views.js';

const HOUR_MS = 3600 * 1000;

export interface UsageRoutesDeps {
  billing: WebBilling;
  /** Undefined only with PUBLIC_API_ACCOUNTING=off (benchmarks): the dashboard then has no quota. */
  quota: QuotaService | undefined;
  series: UsageSeries;
  defaultBurstPerSecond: number;
}

/**
 * The window a series covers, in UTC: this month's days so far (to the end of `now`'s day), or
 * the 48 whole hours up to the end of `now`'s hour.
 */
export function usageWindowOf(granularity: 'day' | 'hour', now: Date): { from: Date; to: Date } {
  if (granularity === 'hour') {
    const to = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
    return { from: new Date(to.getTime() - 48 * HOUR_MS), to };
  }
  return monthToDate(now);
}

/**
 * The dashboard: the account's API plan, the month's quota from the same counters the public API
 * decides against (used, left, overage and what the overage costs so far) and the usage series
 * of stats' rollups of the usage ledger, per day or per hour, for the account or one key.
 */
export function usageRoutes(deps: UsageRoutesDeps): WebRoute[] {
  return [
    defineWebRoute({
      name: 'getUsage',
      method: 'GET',
      path: '/api/usage',
      login: true,
      input: z.object({
        granularity: z.enum(['day', 'hour'], { error: 'granularity must be day or hour' }).default('day'),
        key_id: text(200),
      }),
      handle: async (context, input) => {
        const accountId = context.accountId as string;
        const window = usageWindowOf(input.granularity, context.now);
        const [current, series] = await Promise.all([
          deps.billing.currentPlans(accountId),
          deps.series.series({ accountId, keyId: input.key_id, ...window, granularity: input.granularity }),
        ]);
        const plan = current.find((entry) => entry.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS)?.plan;
        const subject = quotaSubjectOfPlan(
          { accountId, keyId: input.key_id, tier: plan?.tier ?? 0, limits: plan?.limits },
          { burstPerSecond: deps.defaultBurstPerSecond },
        );
        const status = await deps.quota?.status(subject);
        const pricePer1k = plan?.limits?.overagePricePer1kMinor ?? 0;
        return {
          data: {
            plan: plan === undefined ? null : planView(plan),
            quota:
              status === undefined
                ? null
                : {
                    limit: status.limit,
                    used: status.used,
                    remaining: status.remaining,
                    overage: status.overage,
                    // Overage is billed per started 1,000 lookups (billing's invoice rule).
                    overage_cost_minor: Math.ceil(status.overage / 1000) * pricePer1k,
                    currency: plan?.currency ?? 'USD',
                    reset_at: status.resetAt.toISOString(),
                  },
            granularity: input.granularity,
            key_id: input.key_id || null,
            series,
          },
        };
      },
    }),
  ];
}
