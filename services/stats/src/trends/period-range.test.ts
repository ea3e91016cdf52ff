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
});
