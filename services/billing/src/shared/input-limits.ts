import { InvalidArgumentError } from '@ipdata/common';

/**
 * Largest value billing accepts per request field. Checked before any lookup or write, so an
 * oversized value costs one length comparison and is never stored (a 2 MB return_url and a
 * 100 KB account id once were).
 */
export const INPUT_LIMITS = {
  /** Account ids are auth's UUIDs: exactly 36 characters. */
  accountId: 36,
  /** Billing's own ids (ord_…, inv_…) are 28 characters; 64 leaves room without inviting abuse. */
  id: 64,
  planId: 64,
  pageToken: 64,
  url: 2048,
} as const;

/** auth gives every account a lower-case UUID (crypto.randomUUID); one spelling per account. */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function tooLong(field: string, max: number): InvalidArgumentError {
  return new InvalidArgumentError(`${field} is longer than ${max} characters`, { reason: 'too_long', details: { field } });
}

/** A non-empty value of at most `max` characters (length is checked first, on the raw value). */
export function requireBounded(field: string, value: string, max: number): string {
  if (value.length > max) throw tooLong(field, max);
  if (value.trim() === '') throw new InvalidArgumentError(`${field} is required`, { details: { field } });
  return value;
}

/** A value that may be empty (e.g. page_token), but never longer than `max`. */
export function requireAtMost(field: string, value: string, max: number): string {
  if (value.length > max) throw tooLong(field, max);
  return value;
}

/** An account id as auth issues it: a lower-case UUID. */
export function requireAccountId(accountId: string): string {
  requireBounded('account_id', accountId, INPUT_LIMITS.accountId);
  if (!ACCOUNT_ID.test(accountId)) {
    throw new InvalidArgumentError('account_id must be an account id (a lower-case UUID)', {
      reason: 'malformed_account_id',
      details: { field: 'account_id' },
    });
  }
  return accountId;
}

export function isAccountId(value: string): boolean {
  return value.length === INPUT_LIMITS.accountId && ACCOUNT_ID.test(value);
}
