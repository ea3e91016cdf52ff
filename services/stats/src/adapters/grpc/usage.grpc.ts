import { InvalidArgumentError } from '@ipdata/common';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import type {
  GetMonthUsageRequest,
  GetMonthUsageResponse,
  GetUsageRequest,
  GetUsageResponse,
  UsageBucket,
} from '@ipdata/proto/stats/v1/stats';
import type { UsageTotals } from '../../usage/usage-counters.js';
import type { UsageGranularity, UsageQueries } from '../../usage/usage.queries.js';

/** Account ids as auth issues them (lower-case UUIDs); key ids are auth's too (short, url-safe). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

const GRANULARITIES: Partial<Record<RollupGranularity, UsageGranularity>> = {
  [RollupGranularity.ROLLUP_GRANULARITY_HOUR]: 'hour',
  [RollupGranularity.ROLLUP_GRANULARITY_DAY]: 'day',
  [RollupGranularity.ROLLUP_GRANULARITY_MONTH]: 'month',
};

function requireAccountId(accountId: string): string {
  if (!ACCOUNT_ID.test(accountId))
    throw new InvalidArgumentError('account_id must be an account id (a UUID)', { reason: 'invalid_account_id' });
  return accountId;
}

function bucketMessage(totals: UsageTotals, periodStart?: Date): UsageBucket {
  return {
    periodStart,
    lookups: totals.lookups,
    requests: totals.requests,
    free: totals.free,
    requestsByEndpoint: totals.requestsByEndpoint,
    requestsByStatus: totals.requestsByStatus,
    lookupsByEndpoint: totals.lookupsByEndpoint,
  };
}

export async function getUsage(queries: UsageQueries, request: GetUsageRequest): Promise<GetUsageResponse> {
  const granularity = GRANULARITIES[request.granularity];
  if (!granularity) throw new InvalidArgumentError('granularity must be HOUR, DAY or MONTH', { reason: 'invalid_granularity' });
  if (request.apiKeyId !== '' && !KEY_ID.test(request.apiKeyId)) {
    throw new InvalidArgumentError('api_key_id is not a key id', { reason: 'invalid_api_key_id' });
  }
  const result = await queries.getUsage({
    accountId: requireAccountId(request.accountId),
    apiKeyId: request.apiKeyId,
    from: request.from,
    to: request.to,
    granularity,
  });
  return {
    buckets: result.buckets.map((bucket) => bucketMessage(bucket, bucket.periodStart)),
    total: bucketMessage(result.total),
    asOf: result.asOf,
  };
}

export async function getMonthUsage(queries: UsageQueries, request: GetMonthUsageRequest): Promise<GetMonthUsageResponse> {
  const usage = await queries.getMonthUsage(requireAccountId(request.accountId));
  return {
    accountId: usage.accountId,
    monthStart: usage.monthStart,
    resetsAt: usage.resetsAt,
    used: usage.used,
    included: usage.included,
    remaining: usage.remaining,
    overage: usage.overage,
    planId: usage.planId,
    asOf: usage.asOf,
  };
}
