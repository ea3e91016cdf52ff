import { callUnary } from '@ipdata/common';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import type { StatsServiceClient, UsageBucket } from '@ipdata/proto/stats/v1/stats';
import type { DayCount, UsageHistorySource } from '../../usage-history/usage-history.js';
import type { UsagePoint, UsageSeries } from '../../web-api/web-api.ports.js';

const day = (bucket: UsageBucket): DayCount => ({
  date: (bucket.periodStart ?? new Date(0)).toISOString().slice(0, 10),
  count: bucket.lookups,
});

/**
 * stats' GetUsage: per-day lookups of an account and of one key for GET /v1/usage (two calls in
 * parallel), and hourly or daily series for the dashboard.
 */
export class GrpcStatsUsageHistory implements UsageHistorySource, UsageSeries {
  constructor(
    private readonly client: StatsServiceClient,
    private readonly deadlineMs = 1_000,
  ) {}

  async perDay(query: {
    accountId: string;
    keyId: string;
    from: Date;
    to: Date;
  }): Promise<{ account: DayCount[]; key: DayCount[] }> {
    const ask = (apiKeyId: string) =>
      callUnary(
        this.client.getUsage.bind(this.client),
        {
          accountId: query.accountId,
          apiKeyId,
          from: query.from,
          to: query.to,
          granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
        },
        undefined,
        { deadline: Date.now() + this.deadlineMs },
      );
    const [account, key] = await Promise.all([ask(''), ask(query.keyId)]);
    return { account: account.buckets.map(day), key: key.buckets.map(day) };
  }

  async series(query: {
    accountId: string;
    keyId: string;
    from: Date;
    to: Date;
    granularity: 'day' | 'hour';
  }): Promise<UsagePoint[]> {
    const { buckets } = await callUnary(
      this.client.getUsage.bind(this.client),
      {
        accountId: query.accountId,
        apiKeyId: query.keyId,
        from: query.from,
        to: query.to,
        granularity:
          query.granularity === 'hour' ? RollupGranularity.ROLLUP_GRANULARITY_HOUR : RollupGranularity.ROLLUP_GRANULARITY_DAY,
      },
      undefined,
      { deadline: Date.now() + this.deadlineMs },
    );
    return buckets.map((bucket) => ({
      period: (bucket.periodStart ?? new Date(0)).toISOString(),
      lookups: bucket.lookups,
      requests: bucket.requests,
    }));
  }
}
