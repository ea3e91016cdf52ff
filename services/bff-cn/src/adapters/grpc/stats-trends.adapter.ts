import { callUnary } from '@ipdata/common';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type { StatsServiceClient, Trend, TrendQuery } from '@ipdata/proto/stats/v1/stats';
import type { LookupTrendSource, TrendRange } from '../../statistics/statistics.ports.js';

/** stats' lookup trends of face A's own lookups (channel WEB_CN), per UTC day. */
export class GrpcLookupTrends implements LookupTrendSource {
  constructor(
    private readonly client: StatsServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private request(range: TrendRange): { query: TrendQuery } {
    return {
      query: {
        from: range.from,
        to: range.to,
        granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
        channel: UsageChannel.USAGE_CHANNEL_WEB_CN,
        limit: range.limit,
      },
    };
  }

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  async countries(range: TrendRange): Promise<Trend> {
    const answer = await callUnary(this.client.getCountryTrend.bind(this.client), this.request(range), undefined, this.options());
    return answer.trend ?? emptyTrend();
  }

  async provinces(range: TrendRange): Promise<Trend> {
    const answer = await callUnary(
      this.client.getProvinceTrend.bind(this.client),
      this.request(range),
      undefined,
      this.options(),
    );
    return answer.trend ?? emptyTrend();
  }

  async endpoints(range: TrendRange): Promise<Trend> {
    const answer = await callUnary(this.client.getSearchCounts.bind(this.client), this.request(range), undefined, this.options());
    return answer.trend ?? emptyTrend();
  }
}

function emptyTrend(): Trend {
  return { buckets: [], total: [], asOf: undefined };
}
