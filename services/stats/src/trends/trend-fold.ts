import { counterKey, dayStart, hourStart, type CounterDocDelta } from '../counters/counter-delta.js';
import type { CountedEvent, LedgerFold } from '../ledger/ledger-ports.js';

/**
 * Lookup trends (face A's `global_country_trend`, `china_province_trend`, `search_count`) as
 * counter documents of `trend_rollups`: one document per (source partition, kind, channel,
 * granularity, period), counters `r:<key>` (requests = events) and `l:<key>` (Σ count), where the
 * key is the event's country code, province or endpoint. Every counted event with a non-empty key
 * counts, with or without an account (anonymous face A visitors are most of the trend).
 */

export type TrendKind = 'country' | 'province' | 'endpoint';
export type TrendGranularity = 'h' | 'd';

export const TREND_KINDS: readonly TrendKind[] = ['country', 'province', 'endpoint'];

/** Counter name prefixes: requests and lookups per key (the key goes through counterKey). */
export const TREND_REQUESTS_PREFIX = 'r:';
export const TREND_LOOKUPS_PREFIX = 'l:';

/** Dimensions of a trend_rollups document (besides `_id`, `p`, `wm`, `c`). */
export interface TrendDims {
  kind: TrendKind;
  channel: number;
  g: TrendGranularity;
  periodStart: Date;
}

export function trendDocId(partition: number, dims: TrendDims): string {
  return `${partition}|${dims.kind}|${dims.channel}|${dims.g}|${dims.periodStart.toISOString()}`;
}

/** The key an event contributes to a kind, or '' when it has none (then it is not counted there). */
export function trendKeyOf(event: CountedEvent['event'], kind: TrendKind): string {
  switch (kind) {
    case 'country':
      return event.countryCode;
    case 'province':
      return event.province;
    case 'endpoint':
      return event.endpoint;
  }
}

/** Increments of one event to the document of one (kind, granularity). */
function trendIncrement(key: string, count: number): Record<string, number> {
  const inc: Record<string, number> = { [counterKey(TREND_REQUESTS_PREFIX, key)]: 1 };
  // A zero would create an empty field in every document for free lookups; absent reads as 0.
  if (count > 0) inc[counterKey(TREND_LOOKUPS_PREFIX, key)] = count;
  return inc;
}

/**
 * The trend_rollups deltas of one write round. Documents appear in the order first touched and
 * each document's increments in the events' (offset) order, as counter-delta.ts requires.
 */
export const trendFold: LedgerFold = (events, { partition }) => {
  const deltas = new Map<string, { id: string; dims: TrendDims; increments: CounterDocDelta['increments'][number][] }>();
  for (const counted of events) {
    const periods: Array<[TrendGranularity, Date]> = [
      ['h', hourStart(counted.time)],
      ['d', dayStart(counted.time)],
    ];
    for (const kind of TREND_KINDS) {
      const key = trendKeyOf(counted.event, kind);
      if (key === '') continue;
      const inc = trendIncrement(key, counted.event.count);
      for (const [g, periodStart] of periods) {
        const dims: TrendDims = { kind, channel: counted.event.channel, g, periodStart };
        const id = trendDocId(partition, dims);
        let delta = deltas.get(id);
        if (delta === undefined) {
          delta = { id, dims, increments: [] };
          deltas.set(id, delta);
        }
        delta.increments.push({ offset: counted.offset, inc });
      }
    }
  }
  return [...deltas.values()].map(({ id, dims, increments }) => ({ id, dims: { ...dims }, increments }));
};
