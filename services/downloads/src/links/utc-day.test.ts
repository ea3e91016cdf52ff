import { describe, expect, it } from 'vitest';
import { nextUtcMidnight, secondsUntilUtcMidnight, utcDay } from './utc-day.js';

const at = (iso: string) => new Date(iso);

describe('the daily limit’s UTC day', () => {
  it('ends at the last millisecond of 31 December and starts again at 00:00 UTC on 1 January', () => {
    const last = at('2026-12-31T23:59:59.999Z');
    expect(utcDay(last)).toBe('2026-12-31');
    expect(nextUtcMidnight(last)).toEqual(at('2027-01-01T00:00:00.000Z'));
    expect(secondsUntilUtcMidnight(last)).toBe(1);
    const first = at('2027-01-01T00:00:00.000Z');
    expect(utcDay(first)).toBe('2027-01-01');
    expect(nextUtcMidnight(first)).toEqual(at('2027-01-02T00:00:00.000Z'));
    expect(secondsUntilUtcMidnight(first)).toBe(86_400);
  });

  it('has 29 February in a leap year only', () => {
    expect(utcDay(at('2028-02-29T12:00:00.000Z'))).toBe('2028-02-29');
    expect(nextUtcMidnight(at('2028-02-28T23:59:59.999Z'))).toEqual(at('2028-02-29T00:00:00.000Z'));
    expect(nextUtcMidnight(at('2028-02-29T00:00:00.000Z'))).toEqual(at('2028-03-01T00:00:00.000Z'));
    expect(nextUtcMidnight(at('2027-02-28T10:00:00.000Z'))).toEqual(at('2027-03-01T00:00:00.000Z'));
  });

  it('is the UTC day whatever the process time zone (run under TZ=Asia/Shanghai too)', () => {
    // 16:30 UTC on 31 December is 1 January in China; the limit still counts 31 December.
    expect(utcDay(at('2026-12-31T16:30:00.000Z'))).toBe('2026-12-31');
    expect(secondsUntilUtcMidnight(at('2026-12-31T16:30:00.000Z'))).toBe(7.5 * 3600);
  });
});
