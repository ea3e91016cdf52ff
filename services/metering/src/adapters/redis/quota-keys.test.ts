import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import { quotaAccountDayKey, quotaDay, quotaKeyDayKey, quotaMonth, quotaMonthKey } from './quota-keys.js';

describe('quota key layout', () => {
  it('names the monthly, account-day and key-day counters as bff-en writes them', () => {
    const at = new Date('2025-03-09T23:59:59.999Z');
    expect(quotaMonth(at)).toBe('2025-03');
    expect(quotaDay(at)).toBe('2025-03-09');
    expect(quotaMonthKey('quota:', 'acc1', quotaMonth(at))).toBe('quota:m:acc1:2025-03');
    expect(quotaAccountDayKey('quota:', 'acc1', quotaDay(at))).toBe('quota:da:acc1:2025-03-09');
    expect(quotaKeyDayKey('quota:', 'key1', quotaDay(at))).toBe('quota:dk:key1:2025-03-09');
  });

  it('uses the UTC calendar', () => {
    expect(quotaDay(new Date('2025-12-31T23:30:00-05:00'))).toBe('2026-01-01');
    // Just after midnight in China is still the previous UTC day (and month).
    expect(quotaDay(new Date('2026-03-01T00:30:00+08:00'))).toBe('2026-02-28');
    expect(quotaMonth(new Date('2026-03-01T00:30:00+08:00'))).toBe('2026-02');
  });

  it('rolls the month and the year over at 31 Dec 23:59:59.999 UTC', () => {
    const clock = new ManualClock(new Date('2026-12-31T23:59:59.999Z'));
    expect([quotaMonth(clock.now()), quotaDay(clock.now())]).toEqual(['2026-12', '2026-12-31']);
    clock.advance(1);
    expect([quotaMonth(clock.now()), quotaDay(clock.now())]).toEqual(['2027-01', '2027-01-01']);
    expect(quotaMonthKey('quota:', 'acc1', quotaMonth(clock.now()))).toBe('quota:m:acc1:2027-01');
  });

  it('counts 29 February as its own day, then rolls over to 1 March', () => {
    const clock = new ManualClock(new Date('2028-02-28T23:59:59.999Z'));
    expect(quotaDay(clock.now())).toBe('2028-02-28');
    clock.advance(1);
    expect([quotaMonth(clock.now()), quotaDay(clock.now())]).toEqual(['2028-02', '2028-02-29']);
    clock.set(new Date('2028-02-29T23:59:59.999Z'));
    expect(quotaAccountDayKey('quota:', 'acc1', quotaDay(clock.now()))).toBe('quota:da:acc1:2028-02-29');
    clock.advance(1);
    expect([quotaMonth(clock.now()), quotaDay(clock.now())]).toEqual(['2028-03', '2028-03-01']);
    // Not a leap year: 28 February is followed by 1 March.
    expect(quotaDay(new Date(Date.parse('2027-02-28T23:59:59.999Z') + 1))).toBe('2027-03-01');
  });
});
