import { describe, expect, it } from 'vitest';
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
  });
});
