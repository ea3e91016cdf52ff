import { InvalidArgumentError, systemClock, type Clock } from '@ipdata/common';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { monthStart, nextMonthStart } from '../counters/counter-delta.js';
import type { CounterReader } from '../counters/counter-query.js';
import { MAX_BUCKETS, periodRange } from '../trends/period-range.js';
import { planInForce, type AccountPlans } from './account-plan.js';
import { USAGE_COUNTERS, addUsageCounters, emptyTotals, type UsageTotals } from './usage-counters.js';

export type UsageGranularity = 'hour' | 'day' | 'month';

export interface UsageQuery {
  accountId: string;
  /** Empty: the whole account (every key and the web channels). */
  apiKeyId: string;
  from: Date | undefined;
  to: Date | undefined;
  granularity: UsageGranularity;
}

export interface UsageResult {
  buckets: Array<UsageTotals & { periodStart: Date }>;
  total: UsageTotals;
  asOf: Date;
}

export interface MonthUsage {
  accountId: string;
  monthStart: Date;
  resetsAt: Date;
  used: number;
  included: number;
  remaining: number;
  overage: number;
  planId: string;
  asOf: Date;
}

/** Month starts from `from`'s month to `to`'s month (exclusive), both rounded down to the month. */
function monthRange(from: Date | undefined, to: Date | undefined): { from: Date; to: Date; starts: Date[] } {
  if (from === undefined || to === undefined || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
    throw new InvalidArgumentError('from and to are required', { reason: 'range_required' });
  }
  const starts: Date[] = [];
  const end = monthStart(to);
  for (let at = monthStart(from); at < end; at = nextMonthStart(at)) {
    starts.push(at);
    if (starts.length > MAX_BUCKETS) {
      throw new InvalidArgumentError(`at most ${MAX_BUCKETS} month buckets per call`, { reason: 'range_too_long' });
    }
  }
  if (starts.length === 0) {
    throw new InvalidArgumentError('from must be before to, at least one month apart once both are rounded down to the month', {
      reason: 'empty_range',
    });
  }
  return { from: starts[0]!, to: end, starts };
}

/**
 * Usage of an account or key from usage_rollups: hours from the hour documents, days from the day
 * documents, months as sums of days. Every partition's documents of a bucket are summed; empty
 * periods answer zeros, so a chart needs no gap filling.
 */
export class UsageQueries {
  private readonly clock: Clock;

  constructor(private readonly deps: { reader: CounterReader; plans: AccountPlans; clock?: Clock }) {
    this.clock = deps.clock ?? systemClock;
  }

  async getUsage(query: UsageQuery): Promise<UsageResult> {
    const range =
      query.granularity === 'month' ? monthRange(query.from, query.to) : periodRange(query.from, query.to, query.granularity);
    const equals: Record<string, string> = { accountId: query.accountId, g: query.granularity === 'hour' ? 'h' : 'd' };
    if (query.apiKeyId !== '') equals['apiKeyId'] = query.apiKeyId;
    const docs = await this.deps.reader.find({ equals, from: range.from, to: range.to });
    const bucketOf = query.granularity === 'month' ? (at: Date) => monthStart(at).getTime() : (at: Date) => at.getTime();
    const buckets = new Map(range.starts.map((start) => [start.getTime(), { periodStart: start, ...emptyTotals() }]));
    const total = emptyTotals();
    for (const doc of docs) {
      const bucket = buckets.get(bucketOf(doc.periodStart));
      if (!bucket) continue;
      addUsageCounters(bucket, doc.c);
      addUsageCounters(total, doc.c);
    }
    return { buckets: [...buckets.values()], total, asOf: this.clock.now() };
  }

  /** The current month of an account: public API lookups against its plan's allowance. */
  async getMonthUsage(accountId: string): Promise<MonthUsage> {
    const now = this.clock.now();
    const from = monthStart(now);
    const to = nextMonthStart(now);
    const [docs, plan] = await Promise.all([
      this.deps.reader.find({ equals: { accountId, g: 'd', channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API }, from, to }),
      this.deps.plans.get(accountId),
    ]);
    const used = docs.reduce((sum, doc) => sum + (doc.c[USAGE_COUNTERS.lookups] ?? 0), 0);
    const { planId, includedPerMonth } = planInForce(plan, now);
    return {
      accountId,
      monthStart: from,
      resetsAt: to,
      used,
      included: includedPerMonth,
      remaining: Math.max(0, includedPerMonth - used),
      overage: Math.max(0, used - includedPerMonth),
      planId,
      asOf: now,
    };
  }
}
