/**
 * The Redis key layout of the quota counters, in one place for their two writers: the
 * reservation Lua (quota.redis-store.ts) counts grants into them and stats' reconciler raises
 * them back to the rollups after Redis lost data (quota-counters.redis.ts).
 */

/** Default prefix of every quota key (bff-en `QUOTA_KEY_PREFIX`, stats `QUOTA_KEY_PREFIX`). */
export const DEFAULT_QUOTA_KEY_PREFIX = 'quota:';

/** The monthly and daily counters live this long after they are made (or raised by stats). */
export const QUOTA_COUNTER_TTL_SECONDS = 62 * 24 * 3600;

/** Key segments after the prefix; the Lua of bff-en's reservation script writes the same. */
export const QUOTA_KEY_SEGMENTS = Object.freeze({ month: 'm:', accountDay: 'da:', keyDay: 'dk:' });

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYY-MM` of the UTC month containing `at`. */
export function quotaMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}`;
}

/** `YYYY-MM-DD` of the UTC day containing `at`. */
export function quotaDay(at: Date): string {
  return `${quotaMonth(at)}-${pad(at.getUTCDate())}`;
}

/** Lookups granted to an account in a month (`month` = YYYY-MM). */
export function quotaMonthKey(prefix: string, accountId: string, month: string): string {
  return `${prefix}${QUOTA_KEY_SEGMENTS.month}${accountId}:${month}`;
}

/** Lookups granted to an account on a day (`day` = YYYY-MM-DD). */
export function quotaAccountDayKey(prefix: string, accountId: string, day: string): string {
  return `${prefix}${QUOTA_KEY_SEGMENTS.accountDay}${accountId}:${day}`;
}

/** Lookups granted to one API key on a day. */
export function quotaKeyDayKey(prefix: string, keyId: string, day: string): string {
  return `${prefix}${QUOTA_KEY_SEGMENTS.keyDay}${keyId}:${day}`;
}
