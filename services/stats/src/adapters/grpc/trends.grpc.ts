import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type {
  GetCountryTrendRequest,
  GetCountryTrendResponse,
  GetProvinceTrendRequest,
  GetProvinceTrendResponse,
  GetSearchCountsRequest,
  GetSearchCountsResponse,
  Trend,
  TrendQuery as TrendQueryMessage,
} from '@ipdata/proto/stats/v1/stats';
import { InvalidArgumentError } from '@ipdata/common';
import type { PeriodUnit } from '../../trends/period-range.js';
import type { TrendQueries, TrendQuery, TrendResult } from '../../trends/trend.queries.js';

/**
 * GetCountryTrend / GetProvinceTrend / GetSearchCounts: proto request → TrendQuery → proto
 * response. The lead's stats.handler.ts wraps each in unary(), which maps the domain errors.
 */

const CHANNELS: ReadonlySet<number> = new Set([
  UsageChannel.USAGE_CHANNEL_PUBLIC_API,
  UsageChannel.USAGE_CHANNEL_WEB_EN,
  UsageChannel.USAGE_CHANNEL_WEB_CN,
]);

function granularityOf(granularity: RollupGranularity): PeriodUnit {
  if (granularity === RollupGranularity.ROLLUP_GRANULARITY_HOUR) return 'hour';
  if (granularity === RollupGranularity.ROLLUP_GRANULARITY_DAY) return 'day';
  throw new InvalidArgumentError('granularity must be HOUR or DAY', { reason: 'invalid_granularity' });
}

function channelOf(channel: UsageChannel): number | null {
  if (channel === UsageChannel.USAGE_CHANNEL_UNSPECIFIED) return null;
  if (CHANNELS.has(channel)) return channel;
  throw new InvalidArgumentError(`unknown channel ${channel}`, { reason: 'invalid_channel' });
}

export function trendQueryFromProto(query: TrendQueryMessage | undefined): TrendQuery {
  if (query === undefined) throw new InvalidArgumentError('query is required', { reason: 'query_required' });
  return {
    from: query.from,
    to: query.to,
    granularity: granularityOf(query.granularity),
    channel: channelOf(query.channel),
    limit: query.limit,
  };
}

export function trendToProto(result: TrendResult): Trend {
  return {
    buckets: result.buckets.map((bucket) => ({
      periodStart: bucket.periodStart,
      counts: bucket.counts.map((row) => ({ ...row })),
    })),
    total: result.total.map((row) => ({ ...row })),
    asOf: result.asOf,
  };
}

export async function getCountryTrend(queries: TrendQueries, request: GetCountryTrendRequest): Promise<GetCountryTrendResponse> {
  return { trend: trendToProto(await queries.countryTrend(trendQueryFromProto(request.query))) };
}

export async function getProvinceTrend(
  queries: TrendQueries,
  request: GetProvinceTrendRequest,
): Promise<GetProvinceTrendResponse> {
  return { trend: trendToProto(await queries.provinceTrend(trendQueryFromProto(request.query))) };
}

export async function getSearchCounts(queries: TrendQueries, request: GetSearchCountsRequest): Promise<GetSearchCountsResponse> {
  return { trend: trendToProto(await queries.searchCounts(trendQueryFromProto(request.query))) };
}
