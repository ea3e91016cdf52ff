import { describe, expect, it } from 'vitest';
import { dayStart, hourStart, monthStart, nextMonthStart } from './counter-delta.js';

const at = (iso: string) => new Date(iso);

describe('UTC period starts of the rollups', () => {
  it('rolls hour, day, month and year over together at 00:00 UTC on 1 January', () => {
    const last = at('2026-12-31T23:59:59.999Z');
    const first = at('2027-01-01T00:00:00.000Z');
    expect(hourStart(last)).toEqual(at('2026-12-31T23:00:00.000Z'));
    expect(dayStart(last)).toEqual(at('2026-12-31T00:00:00.000Z'));
    expect(monthStart(last)).toEqual(at('2026-12-01T00:00:00.000Z'));
    expect(nextMonthStart(last)).toEqual(first);

    expect(hourStart(first)).toEqual(first);
    expect(dayStart(first)).toEqual(first);
    expect(monthStart(first)).toEqual(first);
    expect(nextMonthStart(first)).toEqual(at('2027-02-01T00:00:00.000Z'));
  });

  it('has a 29 February in leap years only', () => {
    expect(dayStart(at('2028-02-28T23:59:59.999Z'))).toEqual(at('2028-02-28T00:00:00.000Z'));
    expect(dayStart(at('2028-02-29T00:00:00.000Z'))).toEqual(at('2028-02-29T00:00:00.000Z'));
    expect(hourStart(at('2028-02-29T23:59:59.999Z'))).toEqual(at('2028-02-29T23:00:00.000Z'));
    expect(monthStart(at('2028-02-29T23:59:59.999Z'))).toEqual(at('2028-02-01T00:00:00.000Z'));
    expect(nextMonthStart(at('2028-02-29T23:59:59.999Z'))).toEqual(at('2028-03-01T00:00:00.000Z'));
    expect(dayStart(at('2028-03-01T00:00:00.000Z'))).toEqual(at('2028-03-01T00:00:00.000Z'));
    // 2027 is not a leap year: 28 February is followed by 1 March.
    expect(dayStart(at('2027-03-01T00:00:00.000Z'))).toEqual(at('2027-03-01T00:00:00.000Z'));
    expect(nextMonthStart(at('2027-02-28T23:59:59.999Z'))).toEqual(at('2027-03-01T00:00:00.000Z'));
  });

  it('counts in UTC whatever the process time zone (run under TZ=Asia/Shanghai too)', () => {
    // 16:30 UTC on 31 December is already 1 January in China: still December's last day here.
    const shanghaiNewYear = at('2026-12-31T16:30:00.000Z');
    expect(dayStart(shanghaiNewYear)).toEqual(at('2026-12-31T00:00:00.000Z'));
    expect(monthStart(shanghaiNewYear)).toEqual(at('2026-12-01T00:00:00.000Z'));
    expect(nextMonthStart(shanghaiNewYear)).toEqual(at('2027-01-01T00:00:00.000Z'));
    // And 20:00 UTC on 28 February 2028 is 29 February in China: still the 28th here.
    expect(dayStart(at('2028-02-28T20:00:00.000Z'))).toEqual(at('2028-02-28T00:00:00.000Z'));
  });
});
