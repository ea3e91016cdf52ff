/**
 * Port: unique visitors per set (adapters/redis/unique-visitors.redis.ts, HyperLogLog). Sets are
 * named by visitorSetName (visit-fold.ts). Adding a visitor again changes nothing, so a
 * re-delivered round may add its visitors twice.
 */
export interface UniqueVisitorStore {
  add(additions: ReadonlyArray<{ set: string; visitorId: string }>): Promise<void>;
  /** The estimated distinct visitors of each set, in order. */
  countEach(sets: readonly string[]): Promise<number[]>;
  /** The estimated distinct visitors of the union of the sets (0 for none). */
  countUnion(sets: readonly string[]): Promise<number>;
}
