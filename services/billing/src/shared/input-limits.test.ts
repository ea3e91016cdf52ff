import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { INPUT_LIMITS, isAccountId, requireAccountId, requireAtMost, requireBounded } from './input-limits.js';

describe('input limits', () => {
  it('accepts auth account ids (lower-case UUIDs) only', () => {
    const id = randomUUID();
    expect(requireAccountId(id)).toBe(id);
    expect(isAccountId(id)).toBe(true);
    for (const bad of ['', 'acct-1', id.toUpperCase(), ` ${id}`, `${id}x`, 'a'.repeat(100 * 1024)]) {
      expect(() => requireAccountId(bad), bad.slice(0, 40)).toThrow(InvalidArgumentError);
      expect(isAccountId(bad)).toBe(false);
    }
  });

  it('refuses a 100 KB account id by its length, before parsing it', () => {
    expect(() => requireAccountId('a'.repeat(100 * 1024))).toThrow(/account_id is longer than 36 characters/);
  });

  it('bounds ids and optional fields', () => {
    expect(requireBounded('plan_id', 'api-free', INPUT_LIMITS.planId)).toBe('api-free');
    expect(() => requireBounded('plan_id', 'p'.repeat(65), INPUT_LIMITS.planId)).toThrow(/plan_id is longer than 64/);
    expect(() => requireBounded('plan_id', '  ', INPUT_LIMITS.planId)).toThrow(/plan_id is required/);
    expect(requireAtMost('page_token', '', INPUT_LIMITS.pageToken)).toBe('');
    expect(() => requireAtMost('return_url', 'u'.repeat(2049), INPUT_LIMITS.url)).toThrow(/return_url is longer than 2048/);
  });
});
