import { describe, expect, it } from 'vitest';
import { addInterval } from './plan.js';

describe('plan periods', () => {
  it('adds calendar months and years in UTC, clamping to the last day of a shorter month', () => {
    expect(addInterval(new Date('2026-01-10T12:00:00Z'), 'MONTHLY')).toEqual(new Date('2026-02-10T12:00:00Z'));
    expect(addInterval(new Date('2026-01-31T08:00:00Z'), 'MONTHLY')).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(addInterval(new Date('2026-12-15T00:00:00Z'), 'MONTHLY')).toEqual(new Date('2027-01-15T00:00:00Z'));
    expect(addInterval(new Date('2028-02-29T00:00:00Z'), 'YEARLY')).toEqual(new Date('2029-02-28T00:00:00Z'));
  });

  it('ends a month started on the 31st on 28 February, or 29 February in a leap year, at the same time of day', () => {
    expect(addInterval(new Date('2027-01-31T23:59:59.999Z'), 'MONTHLY')).toEqual(new Date('2027-02-28T23:59:59.999Z'));
    expect(addInterval(new Date('2028-01-31T00:00:00.000Z'), 'MONTHLY')).toEqual(new Date('2028-02-29T00:00:00.000Z'));
    expect(addInterval(new Date('2028-01-29T10:00:00.000Z'), 'MONTHLY')).toEqual(new Date('2028-02-29T10:00:00.000Z'));
    expect(addInterval(new Date('2028-02-29T10:00:00.000Z'), 'MONTHLY')).toEqual(new Date('2028-03-29T10:00:00.000Z'));
    expect(addInterval(new Date('2026-03-31T12:00:00.000Z'), 'MONTHLY')).toEqual(new Date('2026-04-30T12:00:00.000Z'));
  });

  it('crosses the year: 31 December + 1 month = 31 January, 1 January + 1 year = 1 January', () => {
    expect(addInterval(new Date('2026-12-31T23:59:59.999Z'), 'MONTHLY')).toEqual(new Date('2027-01-31T23:59:59.999Z'));
    expect(addInterval(new Date('2027-01-01T00:00:00.000Z'), 'YEARLY')).toEqual(new Date('2028-01-01T00:00:00.000Z'));
    expect(addInterval(new Date('2026-12-31T23:59:59.999Z'), 'YEARLY')).toEqual(new Date('2027-12-31T23:59:59.999Z'));
    expect(addInterval(new Date('2027-02-28T00:00:00.000Z'), 'YEARLY')).toEqual(new Date('2028-02-28T00:00:00.000Z'));
  });

  it('counts the day in UTC whatever the process time zone (run under TZ=Asia/Shanghai too)', () => {
    // 20:00 UTC on 31 January is 1 February 04:00 in China: the period still ends on 28 February UTC.
    expect(addInterval(new Date('2027-01-31T20:00:00.000Z'), 'MONTHLY')).toEqual(new Date('2027-02-28T20:00:00.000Z'));
    // 16:30 UTC on 31 December is already 1 January in China.
    expect(addInterval(new Date('2026-12-31T16:30:00.000Z'), 'MONTHLY')).toEqual(new Date('2027-01-31T16:30:00.000Z'));
  });
});
