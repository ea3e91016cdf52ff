import type { ProvinceStatistics } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import {
  changedRows,
  countryName,
  countsChange,
  countsView,
  dayRange,
  findProvince,
  pageOf,
  trendDays,
} from './statistics-views.js';

const SLASH32 = '79228162514264337593543950336';
const counts = (ipv4: number, ipv6 = '0', ipv6Slash32 = 0) => ({ ipv4, ipv6, ipv6Slash32 });
const province = (code: string, name: string, shortName: string, nameEn: string): ProvinceStatistics => ({
  code,
  name,
  shortName,
  nameEn,
  addresses: counts(0),
  idcOrganizations: 0,
});

describe('statistics views', () => {
  it('keeps IPv6 counts as exact decimal strings and fills absent counts with zeros', () => {
    expect(countsView(counts(256, SLASH32, 1))).toEqual({ ipv4: 256, ipv6: SLASH32, ipv6_slash32: 1 });
    expect(countsView(undefined)).toEqual({ ipv4: 0, ipv6: '0', ipv6_slash32: 0 });
  });

  it('computes changes exactly, IPv6 beyond 2^53 with its sign', () => {
    expect(countsChange(counts(100, '1'), counts(356, SLASH32))).toEqual({
      ipv4_change: -256,
      ipv6_change: '-79228162514264337593543950335',
    });
    expect(countsChange(counts(5, SLASH32), undefined)).toEqual({ ipv4_change: 5, ipv6_change: SLASH32 });
  });

  it('names countries in Chinese first, then ICU, then English, then the code', () => {
    expect(countryName('HK', '中国香港特别行政区', 'Hong Kong')).toBe('中国香港特别行政区');
    expect(countryName('US', undefined, 'United States')).toBe('美国');
    expect(countryName('XX', undefined, 'Somewhere')).toBe('Somewhere');
    expect(countryName('XX')).toBe('XX');
  });

  it('lists rows with their change against the previous version, largest change first, vanished rows as zero', () => {
    const view = (row: { key: string }) => ({ key: row.key });
    const rows = changedRows(
      [
        { key: 'A', addresses: counts(10) },
        { key: 'B', addresses: counts(500) },
      ],
      [
        { key: 'A', addresses: counts(10) },
        { key: 'B', addresses: counts(100) },
        { key: 'C', addresses: counts(50) },
      ],
      (row) => row.key,
      view,
    );
    expect(rows).toEqual([
      { key: 'B', ipv4_change: 400, ipv6_change: '0' },
      { key: 'C', ipv4_change: -50, ipv6_change: '0' },
      { key: 'A', ipv4_change: 0, ipv6_change: '0' },
    ]);
    expect(changedRows([{ key: 'A', addresses: counts(1) }], undefined, (row) => row.key, view)).toEqual([
      { key: 'A', ipv4_change: null, ipv6_change: null },
    ]);
  });

  it('finds a division by code, name, short name, English name or ISO code', () => {
    const provinces = [province('44', '广东省', '广东', 'Guangdong'), province('81', '香港特别行政区', '香港', 'Hong Kong')];
    for (const text of ['44', '广东省', '广东', 'guangdong']) expect(findProvince(provinces, text)?.code).toBe('44');
    expect(findProvince(provinces, 'hk')?.code).toBe('81');
    expect(findProvince(provinces, '火星')).toBeUndefined();
  });

  it('answers a trend with every day of the range, sums over all kept keys and the largest rows', () => {
    const range = dayRange(new Date('2026-11-03T15:00:00Z'), 3);
    expect(range).toEqual({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-04T00:00:00Z') });
    const trend = {
      buckets: [
        {
          periodStart: new Date('2026-11-02T00:00:00Z'),
          counts: [
            { key: 'US', requests: 1, lookups: 1 },
            { key: 'CN', requests: 3, lookups: 3 },
            { key: 'DE', requests: 2, lookups: 2 },
          ],
        },
      ],
      total: [
        { key: 'CN', requests: 3, lookups: 3 },
        { key: 'DE', requests: 2, lookups: 2 },
        { key: 'US', requests: 1, lookups: 1 },
      ],
      asOf: undefined,
    };
    const all = trendDays(range, trend, { keep: () => true, name: (key) => countryName(key), top: 2 });
    expect(all.from).toBe('2026-11-01');
    expect(all.to).toBe('2026-11-03');
    expect(all.days.map((day) => [day.day, day.requests])).toEqual([
      ['2026-11-01', 0],
      ['2026-11-02', 6],
      ['2026-11-03', 0],
    ]);
    expect(all.days[1]?.counts).toEqual([
      { key: 'CN', name: '中国', requests: 3, lookups: 3 },
      { key: 'DE', name: '德国', requests: 2, lookups: 2 },
    ]);
    const one = trendDays(range, trend, { keep: (key) => key === 'US', name: (key) => key, top: 10 });
    expect(one.total).toEqual({ requests: 1, lookups: 1, counts: [{ key: 'US', name: 'US', requests: 1, lookups: 1 }] });
  });

  it('ends the day range at the UTC day of now, across the year boundary and 29 February', () => {
    expect(dayRange(new Date('2026-12-31T23:59:59.999Z'), 3)).toEqual({
      from: new Date('2026-12-29T00:00:00Z'),
      to: new Date('2027-01-01T00:00:00Z'),
    });
    expect(dayRange(new Date('2027-01-01T00:00:00.000Z'), 3)).toEqual({
      from: new Date('2026-12-30T00:00:00Z'),
      to: new Date('2027-01-02T00:00:00Z'),
    });
    // Midnight in China (16:00 UTC) is not a day boundary here.
    expect(dayRange(new Date('2027-01-01T16:00:00Z'), 1).from).toEqual(new Date('2027-01-01T00:00:00Z'));
    const leap = dayRange(new Date('2028-03-01T00:00:00Z'), 3);
    const empty = { buckets: [], total: [], asOf: undefined };
    const days = trendDays(leap, empty, { keep: () => true, name: (key) => key, top: 1 });
    expect(days.days.map((day) => day.day)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect([days.from, days.to]).toEqual(['2028-02-28', '2028-03-01']);
    const turn = trendDays(dayRange(new Date('2027-01-01T00:00:00Z'), 2), empty, {
      keep: () => true,
      name: (key) => key,
      top: 1,
    });
    expect(turn.days.map((day) => day.day)).toEqual(['2026-12-31', '2027-01-01']);
  });

  it('pages 1-based with the row count', () => {
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual({ list: [3, 4], page: 2, page_size: 2, total: 5 });
    expect(pageOf([1], 3, 2).list).toEqual([]);
  });
});
