import { InvalidArgumentError } from '@ipdata/common';

/** Account ids as auth issues them (lower-case UUIDs). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkAccountId(accountId: string): string {
  if (!ACCOUNT_ID.test(accountId)) {
    throw new InvalidArgumentError('account_id must be an account id (a UUID)', { reason: 'invalid_account_id' });
  }
  return accountId;
}

export function isAccountId(value: string): boolean {
  return ACCOUNT_ID.test(value);
}

/** database and format are short lower-case words; anything else is refused before a lookup. */
export function checkWord(field: 'database' | 'format', value: string): string {
  if (!/^[a-z]{1,20}$/.test(value)) {
    throw new InvalidArgumentError(`${field} must be a lower-case word, e.g. "geolocation" or "csv"`, {
      reason: `invalid_${field}`,
    });
  }
  return value;
}
