import { InvalidArgumentError, systemClock, type Clock } from '@ipdata/common';
import { decodeCounterKey } from '../counters/counter-delta.js';
import type { CounterReader } from '../counters/counter-query.js';
import { periodRange, type PeriodUnit } from './period-range.js';
import { TREND_LOOKUPS_PREFIX, TREND_REQUESTS_PREFIX, type TrendKind } from './trend-fold.js';

export interface TrendQuery {
  from: Date | undefined;
  to: Date | undefined;
  granularity: PeriodUnit;
  /** A UsageChannel number, or null for every channel. */
  channel: number | null;
  /** Keys per bucket and in the total, largest first; 0 = all. */
  limit: number;
}

export interface TrendCount {
  key: string;
  requests: number;
  lookups: number;
}

export interface TrendResult {
  /** Every period of the range, oldest first; counts largest first. */
  buckets: Array<{ periodStart: Date; counts: TrendCount[] }>;
  /** Over the whole range, largest first. */
  total: TrendCount[];
  asOf: Date;
}

/** Most keys a caller may ask for; 0 (all) is allowed and bounded by the data (countries, provinces, endpoints). */
const MAX_LIMIT = 10_000;

/** Largest first: by requests, then lookups, then key (a stable order for equal counts). */
function byCountDesc(a: TrendCount, b: TrendCount): number {
  return b.requests - a.requests || b.lookups - a.lookups || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Decodes `r:<key>` / `l:<key>` counters into one row per key, added into `into`. */
function addCounters(into: Map<string, TrendCount>, counters: Readonly<Record<string, number>>): void {
  for (const [field, value] of Object.entries(counters)) {
    let key = decodeCounterKey(TREND_REQUESTS_PREFIX, field);
    const isRequests = key !== null;
    key ??= decodeCounterKey(TREND_LOOKUPS_PREFIX, field);
    if (key === null || typeof value !== 'number') continue;
    let row = into.get(key);
    if (row === undefined) {
      row = { key, requests: 0, lookups: 0 };
      into.set(key, row);
    }
    if (isRequests) row.requests += value;
    else row.lookups += value;
  }
}

function ranked(rows: Map<string, TrendCount>, limit: number): TrendCount[] {
  const sorted = [...rows.values()].sort(byCountDesc);
  return limit > 0 ? sorted.slice(0, limit) : sorted;
}

/** Lookups per country, per Chinese province and requests per endpoint, from trend_rollups. */
export class TrendQueries {
  constructor(
    /** trend_rollups of the live generation (MongoCounterReader with generation.trendsCollection). */
    private readonly reader: CounterReader,
    private readonly clock: Clock = systemClock,
  ) {}

  countryTrend(query: TrendQuery): Promise<TrendResult> {
    return this.trend('country', query);
  }

  provinceTrend(query: TrendQuery): Promise<TrendResult> {
    return this.trend('province', query);
  }

  searchCounts(query: TrendQuery): Promise<TrendResult> {
    return this.trend('endpoint', query);
  }

  private async trend(kind: TrendKind, query: TrendQuery): Promise<TrendResult> {
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIMIT) {
      throw new InvalidArgumentError(`limit must be between 0 (all) and ${MAX_LIMIT}`, { reason: 'invalid_limit' });
    }
    const range = periodRange(query.from, query.to, query.granularity);
    const asOf = this.clock.now();
    const equals: Record<string, string | number> = { kind, g: query.granularity === 'hour' ? 'h' : 'd' };
    if (query.channel !== null) equals['channel'] = query.channel;
    const docs = await this.reader.find({ equals, from: range.from, to: range.to });
    // Σ over partitions (and channels) per period, one row per key.
    const perPeriod = new Map<number, Map<string, TrendCount>>();
    const total = new Map<string, TrendCount>();
    for (const doc of docs) {
      let rows = perPeriod.get(doc.periodStart.getTime());
      if (rows === undefined) {
        rows = new Map();
        perPeriod.set(doc.periodStart.getTime(), rows);
      }
      addCounters(rows, doc.c);
      addCounters(total, doc.c);
    }
    return {
      buckets: range.starts.map((periodStart) => ({
        periodStart,
        counts: ranked(perPeriod.get(periodStart.getTime()) ?? new Map<string, TrendCount>(), query.limit),
      })),
      total: ranked(total, query.limit),
      asOf,
    };
  }
}
