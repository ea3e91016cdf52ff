import { describe, expect, it } from 'vitest';
import { daysOfMonthSoFar, monthToDate, periodOf, secondsUntil } from './quota-period.js';

const at = (iso: string) => new Date(iso);

/** The days of `month` (YYYY-MM) from the 1st to `last`. */
const daysTo = (month: string, last: number) =>
  Array.from({ length: last }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);

// Instants on both sides of each boundary. Some are another day in the zones the tests also run
// under (TZ=Asia/Shanghai is UTC+8): periods are UTC whatever the process's zone.
describe('quota periods at month, year and leap-day boundaries (UTC)', () => {
  it('the last millisecond of a year is December; the next one is January, with its own reset', () => {
    const last = at('2030-12-31T23:59:59.999Z');
    const first = at('2031-01-01T00:00:00.000Z');
    expect(periodOf(last)).toEqual({
      month: '2030-12',
      day: '2030-12-31',
      second: Date.UTC(2030, 11, 31, 23, 59, 59) / 1000,
      resetAt: at('2031-01-01T00:00:00.000Z'),
    });
    expect(periodOf(first)).toEqual({
      month: '2031-01',
      day: '2031-01-01',
      second: Date.UTC(2031, 0, 1) / 1000,
      resetAt: at('2031-02-01T00:00:00.000Z'),
    });
    expect(periodOf(first).second).toBe(periodOf(last).second + 1);
  });

  it('follows UTC, not the process zone: 1 January in Shanghai, 31 December in UTC (and the reverse west of it)', () => {
    // 16:00Z is 00:00 the next day at UTC+8.
    expect(periodOf(at('2030-12-31T16:00:00.000Z'))).toMatchObject({ month: '2030-12', day: '2030-12-31' });
    // 00:00Z is still the day before west of UTC.
    expect(periodOf(at('2031-01-01T00:00:00.000Z'))).toMatchObject({ month: '2031-01', day: '2031-01-01' });
    expect(periodOf(at('2031-01-31T20:00:00.000Z'))).toMatchObject({ month: '2031-01', day: '2031-01-31' });
  });

  it('a leap year has 29 February, and its month resets on 1 March', () => {
    expect(periodOf(at('2028-02-28T23:59:59.999Z'))).toMatchObject({ month: '2028-02', day: '2028-02-28' });
    expect(periodOf(at('2028-02-29T00:00:00.000Z'))).toMatchObject({
      month: '2028-02',
      day: '2028-02-29',
      resetAt: at('2028-03-01T00:00:00.000Z'),
    });
    expect(periodOf(at('2028-02-29T23:59:59.999Z'))).toMatchObject({ day: '2028-02-29', resetAt: at('2028-03-01T00:00:00Z') });
    expect(periodOf(at('2028-03-01T00:00:00.000Z'))).toMatchObject({
      month: '2028-03',
      day: '2028-03-01',
      resetAt: at('2028-04-01T00:00:00.000Z'),
    });
    // Not leap years: 2027, and 2100 (a century not divisible by 400).
    expect(periodOf(at('2027-02-28T23:59:59.999Z')).resetAt).toEqual(at('2027-03-01T00:00:00Z'));
    expect(periodOf(at('2027-03-01T00:00:00.000Z')).month).toBe('2027-03');
    expect(periodOf(at('2100-02-28T12:00:00Z')).resetAt).toEqual(at('2100-03-01T00:00:00Z'));
  });

  it("lists the month's days so far: one on the 1st, 29 on 29 February, 31 on New Year's Eve", () => {
    expect(daysOfMonthSoFar(at('2031-01-01T00:00:01.000Z'))).toEqual(['2031-01-01']);
    expect(daysOfMonthSoFar(at('2031-01-01T00:00:00.000Z'))).toEqual(['2031-01-01']);
    expect(daysOfMonthSoFar(at('2028-02-29T23:59:40.000Z'))).toEqual(daysTo('2028-02', 29));
    expect(daysOfMonthSoFar(at('2028-03-01T00:00:00.000Z'))).toEqual(['2028-03-01']);
    expect(daysOfMonthSoFar(at('2030-12-31T23:59:59.999Z'))).toEqual(daysTo('2030-12', 31));
    // 1 January 07:00 in Shanghai, still 31 December in UTC.
    expect(daysOfMonthSoFar(at('2030-12-31T23:00:00.000Z'))).toHaveLength(31);
  });

  it('gives the month so far as the UTC days daysOfMonthSoFar names: from the 1st to the midnight after now', () => {
    expect(monthToDate(at('2031-01-01T00:00:01.000Z'))).toEqual({
      from: at('2031-01-01T00:00:00.000Z'),
      to: at('2031-01-02T00:00:00.000Z'),
    });
    // The last day of a month ends at the next month's first instant, the reset: across the year too.
    expect(monthToDate(at('2030-12-31T23:59:59.999Z'))).toEqual({
      from: at('2030-12-01T00:00:00.000Z'),
      to: at('2031-01-01T00:00:00.000Z'),
    });
    expect(monthToDate(at('2030-12-31T23:59:59.999Z')).to).toEqual(periodOf(at('2030-12-31T23:59:59.999Z')).resetAt);
    expect(monthToDate(at('2028-02-29T23:59:40.000Z'))).toEqual({
      from: at('2028-02-01T00:00:00.000Z'),
      to: at('2028-03-01T00:00:00.000Z'),
    });
    expect(monthToDate(at('2030-12-31T16:00:00.000Z')).from).toEqual(at('2030-12-01T00:00:00.000Z'));
    for (const now of ['2031-01-01T00:00:01Z', '2028-02-29T23:59:40Z', '2030-12-31T23:59:59.999Z', '2030-07-15T08:00:00Z']) {
      const { from, to } = monthToDate(at(now));
      expect((to.getTime() - from.getTime()) / 86_400_000, now).toBe(daysOfMonthSoFar(at(now)).length);
    }
  });

  it('counts whole seconds to the reset, at least 1: across New Year and at the end of a leap day', () => {
    const newYearsEve = at('2030-12-31T23:59:59.999Z');
    expect(secondsUntil(newYearsEve, periodOf(newYearsEve).resetAt)).toBe(1);
    const leapNight = at('2028-02-29T23:59:40.000Z');
    expect(secondsUntil(leapNight, periodOf(leapNight).resetAt)).toBe(20);
    const firstSecond = at('2031-01-01T00:00:01.000Z');
    expect(secondsUntil(firstSecond, periodOf(firstSecond).resetAt)).toBe(31 * 86_400 - 1);
    // A reset already passed (a decision made a moment before midnight) never says 0.
    expect(secondsUntil(at('2031-01-01T00:00:00.500Z'), periodOf(newYearsEve).resetAt)).toBe(1);
  });
});
