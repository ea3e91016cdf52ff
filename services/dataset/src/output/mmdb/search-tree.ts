/**
 * The MMDB binary search tree, built in typed arrays from sorted runs (never one object per
 * node). A run list partitions an address space: `starts` (1 or 4 big-endian words per run,
 * starts[0] = 0, strictly ascending) and one tagged value per run. The tree is the minimal one
 * for the runs: a subtree lying inside one run is a single record, every other subtree a node.
 * Its terminal records are exactly the CIDR blocks of the runs, without decomposing them first.
 */

/** Tagged record values (node ids are plain numbers below DATA). */
export const DATA = 0x80000000;
/** No data for the addresses (the record value `node_count` in the file). */
export const EMPTY = 0xffffffff;
/** Placeholder for "the IPv4 subtree's root node" (::/96 and its aliases). */
export const IPV4_ROOT = 0xfffffffe;
const MAX_DATA_ID = IPV4_ROOT - DATA - 1;

export const dataRecord = (id: number): number => {
  if (id < 0 || id > MAX_DATA_ID) throw new RangeError(`data id ${id} out of range`);
  return (DATA | id) >>> 0;
};

export interface RunList {
  words: 1 | 4;
  starts: Uint32Array;
  values: Uint32Array;
}

/** Node records: records[2n] = left (bit 0), records[2n + 1] = right (bit 1), tagged values. */
export class SearchTree {
  records = new Uint32Array(1 << 16);
  nodeCount = 0;
  /** Node id of ::/96 (the IPv4 root), -1 until built. */
  ipv4Root = -1;

  allocate(): number {
    if (2 * this.nodeCount + 2 > this.records.length) {
      const grown = new Uint32Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    return this.nodeCount++;
  }

  /** Adds the tree of `runs` (bit depth 32 or 128); returns the record for its root. */
  addRuns(runs: RunList, forceNode: boolean): number {
    const { words, starts, values } = runs;
    const count = values.length;
    if (count === 0 || starts.length !== count * words) throw new Error('run list: starts and values disagree');
    for (let w = 0; w < words; w++) if (starts[w] !== 0) throw new Error('run list: the first run must start at address 0');

    const bit = (run: number, depth: number): number =>
      ((starts[run * words + (depth >>> 5)] as number) >>> (31 - (depth & 31))) & 1;
    /** True when the run's start has only zero bits after `depth` (it starts the right half). */
    const startsHalf = (run: number, depth: number): boolean => {
      const next = depth + 1;
      const word = next >>> 5;
      if (word < words && (next & 31) !== 0) {
        const mask = 0xffffffff >>> (next & 31);
        if (((starts[run * words + word] as number) & mask) !== 0) return false;
      }
      for (let w = (next & 31) === 0 ? word : word + 1; w < words; w++) if (starts[run * words + w] !== 0) return false;
      return true;
    };

    // Runs k..e-1: run k holds the subtree's first address, runs k+1..e-1 start inside it.
    const node = (depth: number, k: number, e: number): number => {
      const id = this.allocate();
      let low = k + 1;
      let high = e;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (bit(mid, depth) === 1) high = mid;
        else low = mid + 1;
      }
      const split = low;
      const left = subtree(depth + 1, k, split);
      const right = split < e && startsHalf(split, depth) ? subtree(depth + 1, split, e) : subtree(depth + 1, split - 1, e);
      this.records[2 * id] = left;
      this.records[2 * id + 1] = right;
      return id;
    };
    const subtree = (depth: number, k: number, e: number): number => (e === k + 1 ? (values[k] as number) : node(depth, k, e));

    for (let i = 1; i < count; i++) {
      let order = 0;
      for (let w = 0; w < words && order === 0; w++) {
        const a = starts[(i - 1) * words + w] as number;
        const b = starts[i * words + w] as number;
        order = a < b ? -1 : a > b ? 1 : 0;
      }
      if (order >= 0) throw new Error(`run list: starts are not strictly ascending at run ${i}`);
    }
    return forceNode ? node(0, 0, count) : subtree(0, 0, count);
  }
}

/**
 * One tree for IPv6 with IPv4 inside it, as MaxMind's files do: IPv4 at ::/96 (its own root
 * node, always a node), and ::ffff:0:0/96 (IPv4-mapped) and 2002::/16 (6to4) pointing at that
 * node. `ipv6` must already carry IPV4_ROOT over those three blocks (see overlayIpv4Blocks).
 * Node 0 is the IPv6 root.
 */
export function buildSearchTree(ipv6: RunList, ipv4: RunList): SearchTree {
  if (ipv6.words !== 4 || ipv4.words !== 1) throw new Error('buildSearchTree takes an IPv6 and an IPv4 run list');
  const tree = new SearchTree();
  const root = tree.addRuns(ipv6, true);
  if (root !== 0) throw new Error('the IPv6 root must be node 0');
  tree.ipv4Root = tree.addRuns(ipv4, true);
  // Resolve the placeholders now that the IPv4 root has an id.
  const { records } = tree;
  for (let i = 0; i < 2 * tree.nodeCount; i++) if (records[i] === IPV4_ROOT) records[i] = tree.ipv4Root;
  return tree;
}

/** The IPv6 blocks that lead to the IPv4 subtree: ::/96 itself, ::ffff:0:0/96 and 2002::/16. */
export const IPV4_BLOCKS: ReadonlyArray<{ start: readonly number[]; end: readonly number[]; name: string }> = [
  { name: '::/96', start: [0, 0, 0, 0], end: [0, 0, 0, 0xffffffff] },
  { name: '::ffff:0:0/96', start: [0, 0, 0xffff, 0], end: [0, 0, 0xffff, 0xffffffff] },
  { name: '2002::/16', start: [0x20020000, 0, 0, 0], end: [0x2002ffff, 0xffffffff, 0xffffffff, 0xffffffff] },
];

function compare4(a: Uint32Array | readonly number[], ai: number, b: Uint32Array | readonly number[], bi: number): number {
  for (let w = 0; w < 4; w++) {
    const x = a[ai + w] as number;
    const y = b[bi + w] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Replaces the IPv4 blocks of an IPv6 run list with IPV4_ROOT runs and folds equal neighbours.
 * Returns the new list and how many runs with data lay (partly) under those blocks: their data
 * is not in the file there (such addresses answer with the IPv4 data they embed).
 */
export function overlayIpv4Blocks(runs: RunList): { runs: RunList; shadowedRuns: number } {
  const { starts, values } = runs;
  const count = values.length;
  const outStarts: number[] = [];
  const outValues: number[] = [];
  const push = (address: ArrayLike<number>, at: number, value: number) => {
    if (outValues.length > 0 && outValues[outValues.length - 1] === value) return;
    for (let w = 0; w < 4; w++) outStarts.push(address[at + w] as number);
    outValues.push(value);
  };
  const cursor = new Uint32Array(4);
  let run = 0; // the run holding `cursor`
  let shadowedRuns = 0;
  let done = false;
  for (const block of IPV4_BLOCKS) {
    while (run + 1 < count && compare4(starts, (run + 1) * 4, block.start, 0) < 0) {
      if (compare4(cursor, 0, block.start, 0) < 0) push(cursor, 0, values[run] as number);
      run++;
      cursor.set(starts.subarray(run * 4, run * 4 + 4));
    }
    if (compare4(cursor, 0, block.start, 0) < 0) push(cursor, 0, values[run] as number);
    push(block.start, 0, IPV4_ROOT);
    // Runs overlapping the block: the one holding its start, and every run starting inside it.
    if (values[run] !== EMPTY) shadowedRuns++;
    while (run + 1 < count && compare4(starts, (run + 1) * 4, block.end, 0) <= 0) {
      run++;
      if (values[run] !== EMPTY) shadowedRuns++;
    }
    cursor.set(block.end);
    let carry = true;
    for (let w = 3; w >= 0 && carry; w--) {
      cursor[w] = ((cursor[w] as number) + 1) >>> 0;
      carry = cursor[w] === 0;
    }
    done = carry;
    // The run holding the address after the block (one may start exactly there).
    while (!done && run + 1 < count && compare4(starts, (run + 1) * 4, cursor, 0) <= 0) run++;
  }
  if (!done) {
    push(cursor, 0, values[run] as number);
    for (let i = run + 1; i < count; i++) push(starts, i * 4, values[i] as number);
  }
  return { runs: { words: 4, starts: Uint32Array.from(outStarts), values: Uint32Array.from(outValues) }, shadowedRuns };
}

/** Folds neighbouring ranges whose values are equal (the value of each range given by `valueOf`). */
export function foldRuns(words: 1 | 4, starts: Uint32Array, count: number, valueOf: (range: number) => number): RunList {
  let kept = 0;
  let previous = -1;
  const keep = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const value = valueOf(i);
    if (value !== previous) {
      keep[i] = 1;
      kept++;
      previous = value;
    }
  }
  const outStarts = new Uint32Array(kept * words);
  const outValues = new Uint32Array(kept);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (keep[i] === 0) continue;
    outStarts.set(starts.subarray(i * words, i * words + words), at * words);
    outValues[at++] = valueOf(i);
  }
  return { words, starts: outStarts, values: outValues };
}
