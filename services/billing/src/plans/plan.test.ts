import { describe, expect, it } from 'vitest';
import { addInterval } from './plan.js';

describe('plan periods', () => {
  it('adds calendar months and years in UTC, clamping to the last day of a shorter month', () => {
    expect(addInterval(new Date('2026-01-10T12:00:00Z'), 'MONTHLY')).toEqual(new Date('2026-02-10T12:00:00Z'));
    expect(addInterval(new Date('2026-01-31T08:00:00Z'), 'MONTHLY')).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(addInterval(new Date('2026-12-15T00:00:00Z'), 'MONTHLY')).toEqual(new Date('2027-01-15T00:00:00Z'));
    expect(addInterval(new Date('2028-02-29T00:00:00Z'), 'YEARLY')).toEqual(new Date('2029-02-28T00:00:00Z'));
  });
});
