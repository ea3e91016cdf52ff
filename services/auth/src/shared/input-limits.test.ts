import { describe, expect, it } from 'vitest';
import { checkFieldLengths } from './input-limits.js';

describe('checkFieldLengths', () => {
  it('refuses the first field over its bound, naming it in snake case', () => {
    expect(() => checkFieldLengths({ email: 'a@b.cn', password: 'x'.repeat(129) })).toThrowError(
      expect.objectContaining({ reason: 'field_too_long', details: { field: 'password' } }),
    );
    expect(() => checkFieldLengths({ clientIp: '1'.repeat(46) })).toThrowError(
      expect.objectContaining({ details: { field: 'client_ip' } }),
    );
    expect(() => checkFieldLengths({ unknownField: 'y'.repeat(257) })).toThrowError(
      expect.objectContaining({ reason: 'field_too_long' }),
    );
  });

  it('accepts values at the bound and ignores non-strings', () => {
    expect(() =>
      checkFieldLengths({ password: 'x'.repeat(128), email: 'e'.repeat(254), rememberMe: true, purpose: 3 }),
    ).not.toThrow();
  });
});
