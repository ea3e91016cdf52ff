/**
 * A level-compressed radix tree over a partition of an address space (IPv4: one 32-bit word per
 * address, IPv6: four). The partition is the dataset's range table: range i covers
 * starts[i] .. starts[i + 1] - 1, so "which range holds address a" is "the last i with
 * starts[i] <= a".
 *
 * A node first checks the bits its ranges all share (path compression: an address that differs
 * there lies before or after all of them), then splits the next `stride` bits into 2^stride
 * slots. The stride adapts to the number of ranges under the node, so dense regions (the
 * 2001:/2a0x: IPv6 blocks) take two or three levels instead of six or seven.
 *
 * A slot is two words side by side, so one cache line answers most lookups:
 *   [UNIFORM | record, range]  the slot lies inside one range: the record index without touching
 *                              the range table at all
 *   [CHILD | node, 0]          descend
 *   [lo, hi]                   a short run of candidate ranges, binary searched in `starts`
 * Nodes are eight words each (NODE_* offsets). Everything lives in typed arrays; lookups allocate
 * nothing. Pure module: buffers in, answers out, no I/O, so it is tested and benchmarked alone.
 */
export interface RadixIndexOptions {
  /** Bits consumed by the root node. */
  rootStride?: number;
  /** Largest stride of an inner node. */
  maxStride?: number;
  /** Inner strides aim at this many candidate ranges per slot. */
  targetRun?: number;
  /** Largest candidate run left to binary search instead of splitting further. */
  leafMax?: number;
}

/**
 * Measured on the full dataset (3.2 M IPv4 and 1.3 M IPv6 ranges) with scripts/bench and the
 * depth histogram in the engine README: see there for the figures behind these numbers.
 */
export const DEFAULT_RADIX_OPTIONS = { rootStride: 20, maxStride: 16, targetRun: 2, leafMax: 8 } as const;

const WORD_BITS = 32;
const UNIFORM = 0x80000000;
const CHILD = 0x40000000;
const VALUE_MASK = 0x3fffffff;
/** A record index meaning "no data" (the dataset format's NONE). */
const NO_RECORD = 0xffffffff;

const NODE_WORDS = 8;
const NODE_SLOT_BASE = 0;
/** strideShift | strideWord << 8 | skipWord << 16 */
const NODE_LAYOUT = 1;
const NODE_STRIDE_MASK = 2;
const NODE_SKIP_MASK = 3;
const NODE_SKIP_VALUE = 4;
/** Range answered when the address is below the node's shared bits. */
const NODE_FIRST = 5;
/** Range answered when the address is above them. */
const NODE_LAST = 6;

class GrowableU32 {
  array: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.array = new Uint32Array(capacity);
  }
  reserve(extra: number): number {
    const at = this.length;
    if (at + extra > this.array.length) {
      const next = new Uint32Array(Math.max(this.array.length * 2, at + extra));
      next.set(this.array.subarray(0, at));
      this.array = next;
    }
    this.length += extra;
    return at;
  }
  trimmed(): Uint32Array {
    return this.array.slice(0, this.length);
  }
}

/** Mask of bits [from, to) of the 32-bit word holding bit `from` (to ≤ that word's end). */
function bitsMask(from: number, to: number): number {
  const width = to - from;
  if (width === 0) return 0;
  const shift = WORD_BITS - (to - (from & ~31));
  return width === WORD_BITS ? 0xffffffff : (((1 << width) - 1) << shift) >>> 0;
}

/** Compares the starts of ranges i and j: negative, zero or positive. */
function compareStarts(starts: Uint32Array, words: number, i: number, j: number): number {
  for (let w = 0; w < words; w++) {
    const a = starts[i * words + w] as number;
    const b = starts[j * words + w] as number;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

interface PendingNode {
  /** The node's block: its first address and prefix length. */
  prefix: Uint32Array;
  bit: number;
  first: number;
  last: number;
}

export class RadixIndex {
  readonly nodeCount: number;
  readonly rangeCount: number;
  /**
   * Record index of the range the last find4/find6 returned. A slot inside one range holds both,
   * so callers that need the two read this instead of rangeRecords[range], a cache miss in a
   * multi-megabyte array (measured ~10% of a batch). Read it right after the call.
   */
  foundRecord = 0;

  private constructor(
    private readonly starts: Uint32Array,
    private readonly rangeRecords: Uint32Array,
    private readonly nodes: Uint32Array,
    private readonly slots: Uint32Array,
    words: 1 | 4,
  ) {
    this.nodeCount = nodes.length / NODE_WORDS;
    this.rangeCount = starts.length / words;
  }

  /**
   * Builds the tree over `starts` (ascending, starting at address 0, `words` words per address).
   * `rangeRecords[i]` is range i's record index (NONE for no data); slots inside one range keep it.
   */
  static build(starts: Uint32Array, words: 1 | 4, rangeRecords: Uint32Array, options: RadixIndexOptions = {}): RadixIndex {
    const { rootStride, maxStride, targetRun, leafMax } = { ...DEFAULT_RADIX_OPTIONS, ...options };
    const totalBits = words * WORD_BITS;
    const rangeCount = starts.length / words;
    if (rangeCount > VALUE_MASK) throw new Error('too many ranges for one tree');
    if (rootStride < 1 || rootStride > 24 || maxStride < 1 || maxStride > 24) throw new Error('strides must be 1..24 bits');
    const nodes = new GrowableU32(NODE_WORDS * 1024);
    const slots = new GrowableU32(2 << rootStride);
    const slotStart = new Uint32Array(words);

    const compareStart = (i: number): number => {
      for (let w = 0; w < words; w++) {
        const a = starts[i * words + w] as number;
        const b = slotStart[w] as number;
        if (a !== b) return a < b ? -1 : 1;
      }
      return 0;
    };
    /** First bit (≥ from) where the starts of ranges i and j differ; totalBits when equal. */
    const firstDifference = (i: number, j: number, from: number): number => {
      for (let w = from >>> 5; w < words; w++) {
        const x = ((starts[i * words + w] as number) ^ (starts[j * words + w] as number)) >>> 0;
        if (x !== 0) return w * WORD_BITS + Math.clz32(x);
      }
      return totalBits;
    };

    // Unsorted starts would send the build in circles: refuse them (one pass, ~5 ms here).
    for (let i = 1; i < rangeCount; i++) {
      const ascending =
        words === 1 ? (starts[i - 1] as number) < (starts[i] as number) : compareStarts(starts, words, i - 1, i) < 0;
      if (!ascending) throw new Error(`range starts must ascend (range ${i})`);
    }
    // Scratch for one node's slots, reused: allocating per node (64 k nodes) cost a third of the build in GC.
    const widest = 2 ** Math.max(rootStride, maxStride) + 1;
    const loScratch = new Uint32Array(widest);
    const startsAtSlotScratch = new Uint8Array(widest);

    const queue: PendingNode[] = [{ prefix: new Uint32Array(words), bit: 0, first: 0, last: rangeCount - 1 }];
    for (let q = 0; q < queue.length; q++) {
      const { prefix, bit, first, last } = queue[q] as PendingNode;

      // Path compression: the bits (within this word) shared by every range starting inside the block.
      const skipWord = bit >>> 5;
      let strideBit = bit;
      if (bit > 0 && last > first) {
        const wordEnd = (skipWord + 1) * WORD_BITS;
        strideBit = Math.min(firstDifference(first + 1, last, bit), wordEnd, totalBits - 1);
      }
      const skipMask = bitsMask(bit, strideBit);
      const skipValue = ((starts[last * words + skipWord] as number) & skipMask) >>> 0;

      const strideWord = strideBit >>> 5;
      const roomInWord = (strideWord + 1) * WORD_BITS - strideBit;
      const wanted = bit === 0 ? rootStride : Math.ceil(Math.log2((last - first + 1) / targetRun));
      const stride = Math.max(1, Math.min(wanted, bit === 0 ? rootStride : maxStride, roomInWord));
      const shift = roomInWord - stride;
      const slotCount = 2 ** stride;

      const node = nodes.reserve(NODE_WORDS) / NODE_WORDS;
      const slotBase = slots.reserve(2 * slotCount) / 2;
      const n = node * NODE_WORDS;
      nodes.array[n + NODE_SLOT_BASE] = slotBase;
      nodes.array[n + NODE_LAYOUT] = shift | (strideWord << 8) | (skipWord << 16);
      nodes.array[n + NODE_STRIDE_MASK] = slotCount - 1;
      nodes.array[n + NODE_SKIP_MASK] = skipMask;
      nodes.array[n + NODE_SKIP_VALUE] = skipValue;
      nodes.array[n + NODE_FIRST] = first;
      nodes.array[n + NODE_LAST] = last;

      // Candidate run of every slot: lo = range covering the slot's first address.
      slotStart.set(prefix);
      slotStart[skipWord] = ((slotStart[skipWord] as number) | skipValue) >>> 0;
      const base = slotStart[strideWord] as number;
      const lo = loScratch;
      const startsAtSlot = startsAtSlotScratch;
      let candidate = first;
      for (let c = 0; c < slotCount; c++) {
        const address = (base | (c << shift)) >>> 0;
        if (words === 1) {
          // IPv4: plain comparisons (the 2^20-slot root dominates the build).
          while (candidate < last && (starts[candidate + 1] as number) <= address) candidate++;
          startsAtSlot[c] = starts[candidate] === address ? 1 : 0;
        } else {
          slotStart[strideWord] = address;
          while (candidate < last && compareStart(candidate + 1) <= 0) candidate++;
          startsAtSlot[c] = compareStart(candidate) === 0 ? 1 : 0;
        }
        lo[c] = candidate;
      }
      lo[slotCount] = last;

      const childBit = strideBit + stride;
      for (let c = 0; c < slotCount; c++) {
        const from = lo[c] as number;
        const to = c + 1 < slotCount ? (lo[c + 1] as number) - (startsAtSlot[c + 1] as number) : last;
        const at = 2 * (slotBase + c);
        const record = rangeRecords[from] as number;
        if (from === to && record !== NO_RECORD && record <= VALUE_MASK) {
          slots.array[at] = (UNIFORM | record) >>> 0;
          slots.array[at + 1] = from;
        } else if (to - from + 1 <= leafMax || childBit >= totalBits) {
          slots.array[at] = from;
          slots.array[at + 1] = to;
        } else {
          const childPrefix = new Uint32Array(prefix);
          childPrefix[skipWord] = ((childPrefix[skipWord] as number) | skipValue) >>> 0;
          childPrefix[strideWord] = ((childPrefix[strideWord] as number) | (c << shift)) >>> 0;
          slots.array[at] = (CHILD | queue.length) >>> 0;
          slots.array[at + 1] = 0;
          queue.push({ prefix: childPrefix, bit: childBit, first: from, last: to });
        }
      }
    }
    if (queue.length > VALUE_MASK) throw new Error('too many nodes for one tree');
    return new RadixIndex(starts, rangeRecords, nodes.trimmed(), slots.trimmed(), words);
  }

  /** Bytes held by the tree itself (starts and records belong to the dataset). */
  get byteLength(): number {
    return this.nodes.byteLength + this.slots.byteLength;
  }

  /** Range index holding the IPv4 address `ip` (0 .. 2^32 - 1). Only for words = 1. */
  find4(ip: number): number {
    const slot = this.leaf4(ip);
    if (slot < 0) return this.found(-slot - 1);
    const a = this.slots[slot] as number;
    const b = this.slots[slot + 1] as number;
    if (a < UNIFORM) return this.found(this.search4(ip, a, b));
    this.foundRecord = a - UNIFORM;
    return b;
  }

  /** Record index of the IPv4 address `ip` (the dataset's NONE where no source has data). */
  record4(ip: number): number {
    const slot = this.leaf4(ip);
    if (slot < 0) return this.rangeRecords[-slot - 1] as number;
    const a = this.slots[slot] as number;
    if (a >= UNIFORM) return a - UNIFORM;
    return this.rangeRecords[this.search4(ip, a, this.slots[slot + 1] as number)] as number;
  }

  /** Range index holding the IPv6 address in `address` (four big-endian words). Only for words = 4. */
  find6(address: Uint32Array): number {
    const slot = this.leaf6(address);
    if (slot < 0) return this.found(-slot - 1);
    const a = this.slots[slot] as number;
    const b = this.slots[slot + 1] as number;
    if (a < UNIFORM) return this.found(this.search6(address, a, b));
    this.foundRecord = a - UNIFORM;
    return b;
  }

  private found(range: number): number {
    this.foundRecord = this.rangeRecords[range] as number;
    return range;
  }

  /** Record index of the IPv6 address (the dataset's NONE where no source has data). */
  record6(address: Uint32Array): number {
    const slot = this.leaf6(address);
    if (slot < 0) return this.rangeRecords[-slot - 1] as number;
    const a = this.slots[slot] as number;
    if (a >= UNIFORM) return a - UNIFORM;
    return this.rangeRecords[this.search6(address, a, this.slots[slot + 1] as number)] as number;
  }

  /**
   * Walks to the leaf slot of an IPv4 address: its word offset in `slots`, or -(range + 1) when
   * path compression already decided the range.
   */
  private leaf4(ip: number): number {
    const nodes = this.nodes;
    const slots = this.slots;
    let n = 0;
    for (;;) {
      const skipMask = nodes[n + NODE_SKIP_MASK] as number;
      if (skipMask !== 0) {
        const bits = (ip & skipMask) >>> 0;
        const expected = nodes[n + NODE_SKIP_VALUE] as number;
        if (bits !== expected) return -(nodes[n + (bits < expected ? NODE_FIRST : NODE_LAST)] as number) - 1;
      }
      const shift = (nodes[n + NODE_LAYOUT] as number) & 31;
      const slot = 2 * ((nodes[n + NODE_SLOT_BASE] as number) + ((ip >>> shift) & (nodes[n + NODE_STRIDE_MASK] as number)));
      const a = slots[slot] as number;
      if (a >= UNIFORM || a < CHILD) return slot;
      n = (a - CHILD) * NODE_WORDS;
    }
  }

  private leaf6(address: Uint32Array): number {
    const nodes = this.nodes;
    const slots = this.slots;
    let n = 0;
    for (;;) {
      const layout = nodes[n + NODE_LAYOUT] as number;
      const skipMask = nodes[n + NODE_SKIP_MASK] as number;
      if (skipMask !== 0) {
        const bits = ((address[layout >>> 16] as number) & skipMask) >>> 0;
        const expected = nodes[n + NODE_SKIP_VALUE] as number;
        if (bits !== expected) return -(nodes[n + (bits < expected ? NODE_FIRST : NODE_LAST)] as number) - 1;
      }
      const value = address[(layout >>> 8) & 3] as number;
      const slot =
        2 * ((nodes[n + NODE_SLOT_BASE] as number) + ((value >>> (layout & 31)) & (nodes[n + NODE_STRIDE_MASK] as number)));
      const a = slots[slot] as number;
      if (a >= UNIFORM || a < CHILD) return slot;
      n = (a - CHILD) * NODE_WORDS;
    }
  }

  /** Last range in lo..hi whose start is at most `ip`. */
  private search4(ip: number, lo: number, hi: number): number {
    const starts = this.starts;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= ip) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private search6(address: Uint32Array, lo: number, hi: number): number {
    const starts = this.starts;
    const a0 = address[0] as number;
    const a1 = address[1] as number;
    const a2 = address[2] as number;
    const a3 = address[3] as number;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      const m = mid * 4;
      const s0 = starts[m] as number;
      let atMost: boolean;
      if (s0 !== a0) atMost = s0 < a0;
      else {
        const s1 = starts[m + 1] as number;
        if (s1 !== a1) atMost = s1 < a1;
        else {
          const s2 = starts[m + 2] as number;
          atMost = s2 !== a2 ? s2 < a2 : (starts[m + 3] as number) <= a3;
        }
      }
      if (atMost) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
