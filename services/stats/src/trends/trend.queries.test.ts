import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import type { CounterQuery, CounterReader } from '../counters/counter-query.js';
import { TrendQueries } from './trend.queries.js';

/** A reader answering fixed documents (as if of several partitions) and remembering what it was asked. */
function readerOf(
  rows: Array<{ periodStart: Date; counters: Record<string, number> }>,
): CounterReader & { asked: CounterQuery[] } {
  const asked: CounterQuery[] = [];
  return {
    asked,
    find: async (query) => {
      asked.push(query);
      return rows.map(({ periodStart, counters }, index) => ({
        id: `${index}|x`,
        partition: index,
        periodStart,
        dims: {},
        c: counters,
      }));
    },
  };
}

const H10 = new Date('2026-02-01T10:00:00Z');
const H11 = new Date('2026-02-01T11:00:00Z');
const H12 = new Date('2026-02-01T12:00:00Z');

describe('TrendQueries', () => {
  it('answers every bucket oldest first, counts largest first, and the range total', async () => {
    const reader = readerOf([
      { periodStart: H11, counters: { 'r:US': 2, 'l:US': 2, 'r:CN': 5, 'l:CN': 9, other: 4 } },
      { periodStart: H10, counters: { 'r:CN': 1, 'l:CN': 1 } },
      { periodStart: H10, counters: { 'r:DE': 3 } },
    ]);
    const clock = new ManualClock(new Date('2026-02-01T12:30:00Z'));
    const queries = new TrendQueries(reader, clock);
    const trend = await queries.countryTrend({
      from: H10,
      to: new Date('2026-02-01T12:59:00Z'),
      granularity: 'hour',
      channel: 3,
      limit: 0,
    });
    expect(reader.asked).toEqual([{ equals: { kind: 'country', g: 'h', channel: 3 }, from: H10, to: H12 }]);
    expect(trend.buckets).toEqual([
      {
        periodStart: H10,
        counts: [
          { key: 'DE', requests: 3, lookups: 0 },
          { key: 'CN', requests: 1, lookups: 1 },
        ],
      },
      {
        periodStart: H11,
        counts: [
          { key: 'CN', requests: 5, lookups: 9 },
          { key: 'US', requests: 2, lookups: 2 },
        ],
      },
    ]);
    expect(trend.total).toEqual([
      { key: 'CN', requests: 6, lookups: 10 },
      { key: 'DE', requests: 3, lookups: 0 },
      { key: 'US', requests: 2, lookups: 2 },
    ]);
    expect(trend.asOf).toEqual(clock.now());
  });

  it('includes empty buckets, applies the limit per bucket and to the total, and decodes keys', async () => {
    const reader = readerOf([{ periodStart: H10, counters: { 'r:a%2Eb': 1, 'r:c': 3, 'r:d': 2 } }]);
    const trend = await new TrendQueries(reader).searchCounts({
      from: H10,
      to: H12,
      granularity: 'hour',
      channel: null,
      limit: 2,
    });
    expect(reader.asked[0]?.equals).toEqual({ kind: 'endpoint', g: 'h' });
    expect(trend.buckets[0]?.counts.map((row) => row.key)).toEqual(['c', 'd']);
    expect(trend.buckets[1]).toEqual({ periodStart: H11, counts: [] });
    expect(trend.total.map((row) => row.key)).toEqual(['c', 'd']);
    const all = await new TrendQueries(reader).searchCounts({ from: H10, to: H12, granularity: 'hour', channel: null, limit: 0 });
    expect(all.total.map((row) => row.key)).toEqual(['c', 'd', 'a.b']);
  });

  it('reads day documents for the province trend', async () => {
    const reader = readerOf([]);
    const trend = await new TrendQueries(reader).provinceTrend({
      from: new Date('2026-02-01T10:00:00Z'),
      to: new Date('2026-02-03T00:00:00Z'),
      granularity: 'day',
      channel: null,
      limit: 0,
    });
    expect(reader.asked[0]).toMatchObject({ equals: { kind: 'province', g: 'd' }, from: new Date('2026-02-01T00:00:00Z') });
    expect(trend.buckets).toHaveLength(2);
    expect(trend.total).toEqual([]);
  });

  it('rejects a bad range or limit before reading', async () => {
    const reader = readerOf([]);
    const queries = new TrendQueries(reader);
    await expect(queries.countryTrend({ from: H12, to: H10, granularity: 'hour', channel: null, limit: 0 })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(
      queries.countryTrend({
        from: H10,
        to: new Date(H10.getTime() + 745 * 3_600_000),
        granularity: 'hour',
        channel: null,
        limit: 0,
      }),
    ).rejects.toThrow(/at most 744/);
    await expect(queries.countryTrend({ from: H10, to: H12, granularity: 'hour', channel: null, limit: -1 })).rejects.toThrow(
      /limit/,
    );
    expect(reader.asked).toEqual([]);
  });
});
