import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format.js';

describe('console dates: UTC, whatever the visitor’s zone', () => {
  it('writes the last millisecond of a year and the first of the next as the API means them', () => {
    expect(formatDate('2026-12-31T23:59:59.999Z')).toBe('Dec 31, 2026');
    expect(formatDate('2027-01-01T00:00:00.000Z')).toBe('Jan 1, 2027');
    expect(formatDateTime('2026-12-31T23:59:59.999Z')).toBe('Dec 31, 2026, 23:59 UTC');
    expect(formatDateTime('2027-01-01T00:00:00.000Z')).toBe('Jan 1, 2027, 00:00 UTC');
  });

  it('writes 29 February, and midnight in China as the UTC day before', () => {
    expect(formatDate('2028-02-29T12:00:00Z')).toBe('Feb 29, 2028');
    expect(formatDate('2028-03-01T00:30:00+08:00')).toBe('Feb 29, 2028');
    expect(formatDateTime('2028-02-29T16:00:00Z')).toBe('Feb 29, 2028, 16:00 UTC');
    expect(formatDate(null)).toBe('—');
  });
});
