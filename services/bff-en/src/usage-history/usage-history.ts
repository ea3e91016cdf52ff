import type { Logger } from 'pino';
import { errorText } from '@ipdata/common';

/** Lookups per UTC day ("YYYY-MM-DD"), as GET /v1/usage shows them. */
export interface DayCount {
  date: string;
  count: number;
}

/** Port: per-day usage of an account and one of its keys, from the stats service's rollups. */
export interface UsageHistorySource {
  /** Days from `from` (inclusive, a UTC midnight) to `to` (exclusive), oldest first. */
  perDay(query: { accountId: string; keyId: string; from: Date; to: Date }): Promise<{ account: DayCount[]; key: DayCount[] }>;
}

/**
 * Per-day counts for GET /v1/usage: the stats service's rollups (the ledger, exact and
 * de-duplicated) when it answers in time, else the quota counters bff-en keeps in Redis (they
 * count the same grants, at the moment of the grant). A missing stats service degrades the answer's
 * history source, never the answer.
 */
export class UsageHistory {
  constructor(
    private readonly source: UsageHistorySource | undefined,
    private readonly logger: Logger,
  ) {}

  async perDay(
    query: { accountId: string; keyId: string; from: Date; to: Date },
    fallback: { account: DayCount[]; key: DayCount[] },
  ): Promise<{ account: DayCount[]; key: DayCount[] }> {
    if (!this.source) return fallback;
    try {
      return await this.source.perDay(query);
    } catch (error) {
      this.logger.warn({ reason: errorText(error) }, 'stats unavailable: per-day usage from the quota counters');
      return fallback;
    }
  }
}
