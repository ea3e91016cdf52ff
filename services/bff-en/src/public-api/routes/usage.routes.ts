import { PlanTier } from '@ipdata/proto/events/v1/billing';
import { monthToDate } from '@ipdata/metering';
import type { UsageHistory } from '../../usage-history/usage-history.js';
import type { Accounting, Caller } from '../accounting.js';
import type { PublicRoute } from '../public-route.js';
import { jsonText } from '../render.js';

const TIER_NAMES: Partial<Record<PlanTier, string>> = {
  [PlanTier.PLAN_TIER_FREE]: 'free',
  [PlanTier.PLAN_TIER_STANDARD]: 'standard',
  [PlanTier.PLAN_TIER_BUSINESS]: 'business',
  [PlanTier.PLAN_TIER_ENTERPRISE]: 'enterprise',
};

/**
 * GET /v1/usage: the calling key's plan and the account's month so far. Used and remaining come
 * from the quota counters (what the next request is decided against); the per-day counts from the
 * stats service's rollups of the usage ledger, or the quota counters while stats does not answer.
 * Reading usage costs no lookup; it counts for the burst limit like every request.
 */
export function usageRoutes(deps: { accounting: Accounting; usageHistory: UsageHistory }): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/usage',
      auth: true,
      handle: async (call, _params, caller) => {
        const { key, subject } = caller as Caller;
        await deps.accounting.reserve(call, caller as Caller, 0, false);
        const status = await deps.accounting.status(caller as Caller);
        // The request's instant (the dispatcher's clock, as the quota's): its month's days so far.
        const perDay = status
          ? await deps.usageHistory.perDay(
              { accountId: key.accountId, keyId: key.keyId, ...monthToDate(new Date(call.nowMs)) },
              status.perDay,
            )
          : undefined;
        const body = {
          plan: {
            id: key.planId === '' ? 'api-free' : key.planId,
            tier: TIER_NAMES[key.tier] ?? 'free',
            lookups_per_month: subject.includedPerMonth,
            max_lookups_per_month: subject.maxPerMonth ?? null,
            overage_allowed: subject.overageAllowed,
            burst_per_second: subject.burstPerSecond,
          },
          key_id: key.keyId,
          quota:
            status === undefined
              ? null
              : {
                  limit: status.limit,
                  used: status.used,
                  remaining: status.remaining,
                  overage: status.overage,
                  reset_at: status.resetAt.toISOString(),
                },
          per_day: perDay?.account ?? [],
          key_per_day: perDay?.key ?? [],
        };
        call.sendJsonText(200, jsonText(call, body));
      },
    },
  ];
}
