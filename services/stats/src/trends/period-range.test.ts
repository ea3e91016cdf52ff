import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { MAX_BUCKETS, periodRange } from './period-range.js';

describe('periodRange', () => {
  it('rounds both ends down and lists every period start, from inclusive and to exclusive', () => {
    const range = periodRange(new Date('2026-01-01T10:30:00Z'), new Date('2026-01-01T13:05:00Z'), 'hour');
    expect(range.from).toEqual(new Date('2026-01-01T10:00:00Z'));
    expect(range.to).toEqual(new Date('2026-01-01T13:00:00Z'));
    expect(range.starts.map((start) => start.toISOString())).toEqual([
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T11:00:00.000Z',
      '2026-01-01T12:00:00.000Z',
    ]);
    expect(periodRange(new Date('2026-01-30T23:00:00Z'), new Date('2026-02-02T00:00:00Z'), 'day').starts).toHaveLength(3);
  });

  it('rejects missing, reversed and empty ranges', () => {
    const at = new Date('2026-01-01T10:00:00Z');
    expect(() => periodRange(undefined, at, 'hour')).toThrow(InvalidArgumentError);
    expect(() => periodRange(at, at, 'hour')).toThrow(/from must be before to/);
    expect(() => periodRange(new Date('2026-01-02T00:00:00Z'), at, 'day')).toThrow(InvalidArgumentError);
    // Within the same hour: nothing left once rounded down.
    expect(() => periodRange(at, new Date('2026-01-01T10:59:59Z'), 'hour')).toThrow(InvalidArgumentError);
  });

  it('allows a month of hours and no more', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    expect(periodRange(from, new Date(from.getTime() + MAX_BUCKETS * 3_600_000), 'hour').starts).toHaveLength(744);
    expect(() => periodRange(from, new Date(from.getTime() + (MAX_BUCKETS + 1) * 3_600_000), 'hour')).toThrow(/at most 744/);
    expect(() => periodRange(from, new Date('2026-01-11T00:00:00Z'), 'day', 9)).toThrow(/at most 9 day/);
  });

  it('crosses the year boundary and the leap day on UTC period starts', () => {
    const hours = periodRange(new Date('2026-12-31T22:30:00.000Z'), new Date('2027-01-01T01:59:59.999Z'), 'hour');
    expect(hours.starts.map((start) => start.toISOString())).toEqual([
      '2026-12-31T22:00:00.000Z',
      '2026-12-31T23:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    // The last millisecond of the year rounds down into 31 December, not into the new year.
    const days = periodRange(new Date('2026-12-30T12:00:00.000Z'), new Date('2026-12-31T23:59:59.999Z'), 'day');
    expect(days.starts.map((start) => start.toISOString())).toEqual(['2026-12-30T00:00:00.000Z']);
    expect(periodRange(new Date('2026-12-31T23:59:59.999Z'), new Date('2027-01-01T00:00:00.000Z'), 'day').starts).toEqual([
      new Date('2026-12-31T00:00:00.000Z'),
    ]);
    const leap = periodRange(new Date('2028-02-28T00:00:00.000Z'), new Date('2028-03-01T00:00:00.000Z'), 'day');
    expect(leap.starts.map((start) => start.toISOString())).toEqual(['2028-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z']);
    expect(periodRange(new Date('2027-02-28T00:00:00.000Z'), new Date('2027-03-01T00:00:00.000Z'), 'day').starts).toHaveLength(1);
    // A leap February of hours is 696 buckets: inside the limit.
    expect(periodRange(new Date('2028-02-01T00:00:00.000Z'), new Date('2028-03-01T00:00:00.000Z'), 'hour').starts).toHaveLength(
      696,
    );
  });
});
