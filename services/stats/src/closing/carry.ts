import { counterKey } from '../counters/counter-delta.js';

/**
 * Late lookups (DESIGN-12 "Closing", lead's decision on carries): a PUBLIC_API lookup counted
 * when its hour is already before the gate's `openFrom` also increments `cr:<openFrom ISO>` in the
 * SAME hour-document update that counts it. One document, one update: a re-delivered record
 * skips both, so a carry can neither be lost nor doubled. The closer bills the hour's lookups
 * minus its `cr:*` counters, plus every `cr:<that hour>` of earlier hours.
 */
export const CARRIED_PREFIX = 'cr:';

/** How far back a late lookup is looked for (longer than the ledger's de-duplication window). */
export const CARRY_LOOKBACK_MS = 7 * 24 * 3_600_000;

/** The counter of lookups carried into the open hour `openFrom` (the usage fold writes it). */
export function carriedKey(openFrom: Date): string {
  return counterKey(CARRIED_PREFIX, openFrom.toISOString());
}
