/**
 * Cache keys for what bff-en makes from an engine answer's parts (their JSON segments,
 * segment-space.ts), kept across batches and keyed by the part's number (CompactBatch.partId under
 * its partsEpoch): a part is a dataset record's country, place or operator, so random addresses
 * keep meeting the same few tens of thousands (measured on the 2026.09 dataset: 100 batches of
 * 1,000 random public addresses name 567 places per batch but 23,435 in all, and 12,132
 * operators). Keyed by number, not by the part's bytes as before (a 100-250-character Latin-1
 * string per part per batch, hashed and compared): with that and each answer's parts fetched once
 * instead of once per segment, decoding and writing a batch's JSON took 21–28% less time (`make
 * bench-render`, both builds interleaved in one process).
 */

/** A key's low bits are the part's id, the bits above them its epoch's slot. */
export const PART_ID_BITS = 24;
/** Part ids below this fit a key beside their epoch's slot (RecordParts numbered 421,606 parts for a whole dataset). */
const IDS_PER_EPOCH = 2 ** PART_ID_BITS;
/** Epochs told apart before the caches start over: a few engine replicas, each restarted or reloaded several times. */
const EPOCH_SLOTS = 64;

/**
 * Cache keys for engine part ids. An id means one part only under its epoch (one engine process
 * serving one dataset), so each epoch seen gets a slot and a key is slot × 2^24 + id: a small
 * integer, which V8's Map hashes fastest. When the slots run out, every cache registered here
 * is cleared and numbering starts again, so a key never outlives its epoch's meaning.
 */
export class PartKeys {
  private readonly slots = new Map<string, number>();

  constructor(private readonly caches: ReadonlyArray<{ clear(): void }>) {}

  /** The slot of an epoch ('' = the engine sent no ids: -1, nothing to key by). */
  slotOf(epoch: string): number {
    if (epoch === '') return -1;
    let slot = this.slots.get(epoch);
    if (slot === undefined) {
      if (this.slots.size >= EPOCH_SLOTS) {
        this.slots.clear();
        for (const cache of this.caches) cache.clear();
      }
      slot = this.slots.size;
      this.slots.set(epoch, slot);
    }
    return slot;
  }

  /** The key of part `id` in `slot`, or -1 when there is none (no slot, no id, or an id too large to key). */
  static keyOf(slot: number, id: number): number {
    return slot < 0 || id < 0 || id >= IDS_PER_EPOCH ? -1 : slot * IDS_PER_EPOCH + id;
  }
}
