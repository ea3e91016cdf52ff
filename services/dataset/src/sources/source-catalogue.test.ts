import { describe, expect, it } from 'vitest';
import { versionDate } from './source-catalogue.js';

describe('versionDate (a source release date from its version)', () => {
  it('reads YYYYMMDD stamps and dotted dates, also 31 December and 29 February', () => {
    expect(versionDate('0.0.20261231')).toBe('2026-12-31');
    expect(versionDate('2.0.2027010100')).toBe('2027-01-01');
    expect(versionDate('1.0.20280229')).toBe('2028-02-29');
    expect(versionDate('2028.2.29')).toBe('2028-02-29');
    expect(versionDate('2026.12.31')).toBe('2026-12-31');
    expect(versionDate('3.1.4')).toBeNull();
  });
});
