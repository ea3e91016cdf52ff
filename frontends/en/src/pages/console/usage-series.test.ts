import { describe, expect, it } from 'vitest';
import { fillSeries, windowPeriods } from './usage-series.js';

const NOW = Date.parse('2025-06-03T14:25:00.000Z');

describe('dashboard series', () => {
  it('covers this month’s days so far, or the 48 hours up to the current one (UTC)', () => {
    expect(windowPeriods('day', NOW).map((start) => new Date(start).toISOString())).toEqual([
      '2025-06-01T00:00:00.000Z',
      '2025-06-02T00:00:00.000Z',
      '2025-06-03T00:00:00.000Z',
    ]);
    const hours = windowPeriods('hour', NOW);
    expect(hours).toHaveLength(48);
    expect(new Date(hours[0]!).toISOString()).toBe('2025-06-01T15:00:00.000Z');
    expect(new Date(hours[47]!).toISOString()).toBe('2025-06-03T14:00:00.000Z');
  });

  it('keeps the API’s numbers as they are and fills the periods it did not list with zeros', () => {
    const rows = fillSeries([{ period: '2025-06-02T00:00:00.000Z', lookups: 1234, requests: 12 }], 'day', NOW);
    expect(rows.map((row) => [row.label, row.lookups, row.requests])).toEqual([
      ['Jun 1', 0, 0],
      ['Jun 2', 1234, 12],
      ['Jun 3', 0, 0],
    ]);
    const hourly = fillSeries([{ period: '2025-06-03T14:00:00.000Z', lookups: 5, requests: 5 }], 'hour', NOW);
    expect(hourly.at(-1)).toEqual({ period: '2025-06-03T14:00:00.000Z', label: 'Jun 3, 14:00', lookups: 5, requests: 5 });
  });

  it('starts a new month window at 1 Jan 00:00:00 UTC and keeps 29 February', () => {
    const days = (now: string) =>
      windowPeriods('day', Date.parse(now)).map((start) => new Date(start).toISOString().slice(0, 10));
    const december = days('2026-12-31T23:59:59.999Z');
    expect(december).toHaveLength(31);
    expect([december[0], december.at(-1)]).toEqual(['2026-12-01', '2026-12-31']);
    expect(days('2027-01-01T00:00:00.000Z')).toEqual(['2027-01-01']);
    const february = days('2028-02-29T23:59:59.999Z');
    expect(february).toHaveLength(29);
    expect(february.at(-1)).toBe('2028-02-29');
    expect(days('2028-03-01T00:00:00.000Z')).toEqual(['2028-03-01']);
    // Midnight in China (16:00 UTC) is no day boundary: the window follows UTC.
    expect(days('2027-01-31T16:30:00.000Z').at(-1)).toBe('2027-01-31');
  });

  it('runs the 48 hours across the year boundary, labelled in UTC', () => {
    const rows = fillSeries([], 'hour', Date.parse('2027-01-01T00:00:00.000Z'));
    expect(rows).toHaveLength(48);
    expect(rows.at(-2)).toMatchObject({ period: '2026-12-31T23:00:00.000Z', label: 'Dec 31, 23:00' });
    expect(rows.at(-1)).toMatchObject({ period: '2027-01-01T00:00:00.000Z', label: 'Jan 1, 00:00' });
    expect(fillSeries([], 'day', Date.parse('2027-01-01T00:00:00.000Z')).map((row) => row.label)).toEqual(['Jan 1']);
  });
});
