import { setFlagsFromString } from 'node:v8';

/**
 * Fixes how far V8 lets the old generation grow between mark-compacts in this process: the next
 * one comes when it reaches (1 + percent/100) times what the last one left alive. 0 gives the
 * choice back to V8, which derives a factor (1.1 to 4) from the GC's and the program's speed at
 * the moment of each mark-compact.
 *
 * Why a service fixes it (bff-en's README, "The hot path"; `make bench-tail`): under load V8's
 * factor for bff-en settled anywhere from ~1.2 to ~2 depending on the moment, so two identical
 * processes ran 4 or 26 main-thread mark-compacts in the same minutes, each a pause of 6-14 ms
 * that lands in the p99. With 100 (a factor of 2) the count was 2-4 for every process.
 *
 * Set at start-up rather than as a node flag: Node refuses V8's heap flags in NODE_OPTIONS, and
 * the heap reads this one at every mark-compact, so it takes effect the same way
 * (heap-growing.test.ts checks that it does).
 */
export function setHeapGrowingPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0 || percent > 1_000) {
    throw new RangeError(`heap growing percent must be an integer from 0 to 1000, got ${percent}`);
  }
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
