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
});
