import { NONE } from '../format/index.js';
import type { WordsPerAddress } from '../ranges/address.js';
import { PartitionBuilder, type Partition } from '../ranges/partition.js';

/** A binary search trie as MaxMind DB and IPIP.net ipdb files store it. */
export interface TrieSource {
  /** 32 for an IPv4 walk, 128 for IPv6. */
  bits: 32 | 128;
  nodeCount: number;
  startNode: number;
  /** The record of `node` for `bit` (0 left, 1 right): a node number, nodeCount (empty) or a data pointer. */
  child(node: number, bit: number): number;
  /** Maps a data pointer (> nodeCount) to a value id, NONE for "no data". */
  leafValue(pointer: number): number;
  /** Subtrees reported as NONE without walking them (e.g. ::ffff:0:0/96, whose data is IPv4). */
  skip?: ReadonlyArray<{ words: readonly number[]; length: number }>;
  /** Called with the number of nodes visited so far. */
  progress?: (visited: number) => void;
  /** Thrown (as the error's message) when the trie is inconsistent. */
  corrupt(problem: string): never;
}

/**
 * Enumerates every range of a trie in address order by an iterative depth-first walk: each
 * leaf (data or empty) is a prefix, and the leaves tile the whole space, so the output is a
 * complete partition without any lookup per address.
 */
export function walkTrie(source: TrieSource): Partition {
  const { bits, nodeCount } = source;
  const words = (bits / 32) as WordsPerAddress;
  const builder = new PartitionBuilder(words);
  // Stack of pending subtrees: node, depth, and the prefix bits so far.
  const maxStack = bits * 2 + 2;
  const stackNode = new Float64Array(maxStack);
  const stackDepth = new Uint8Array(maxStack);
  const stackPrefix = new Uint32Array(maxStack * words);
  const first = new Uint32Array(words);
  const last = new Uint32Array(words);
  const scratch = new Uint32Array(words);
  stackNode[0] = source.startNode;
  stackDepth[0] = 0;
  let top = 1;
  let visited = 0;

  const leaf = (prefixAt: number, depth: number, value: number) => {
    for (let w = 0; w < words; w++) {
      const bitsBefore = w * 32;
      const prefixWord = stackPrefix[prefixAt + w] as number;
      first[w] = prefixWord;
      // Host bits of this word are the ones at position >= depth.
      const keep = Math.max(0, Math.min(32, depth - bitsBefore));
      const hostMask = keep === 32 ? 0 : (0xffffffff >>> keep) >>> 0;
      last[w] = (prefixWord | hostMask) >>> 0;
    }
    builder.add(first, 0, last, 0, value);
  };

  while (top > 0) {
    top--;
    const node = stackNode[top] as number;
    const depth = stackDepth[top] as number;
    const prefixAt = top * words;
    if (node === nodeCount) {
      leaf(prefixAt, depth, NONE);
      continue;
    }
    if (node > nodeCount) {
      leaf(prefixAt, depth, source.leafValue(node));
      continue;
    }
    if (depth >= bits) source.corrupt(`search tree is deeper than ${bits} bits`);
    if (source.skip?.some((skip) => skip.length === depth && matches(stackPrefix, prefixAt, skip.words, depth))) {
      leaf(prefixAt, depth, NONE);
      continue;
    }
    visited++;
    if (source.progress && (visited & 0xffff) === 0) source.progress(visited);
    const left = source.child(node, 0);
    const right = source.child(node, 1);
    for (let w = 0; w < words; w++) scratch[w] = stackPrefix[prefixAt + w] as number;
    // Push right first so the left (lower) half is walked first: ascending address order.
    for (let bit = 1; bit >= 0; bit--) {
      const at = top * words;
      for (let w = 0; w < words; w++) stackPrefix[at + w] = scratch[w] as number;
      if (bit === 1) {
        const word = depth >>> 5;
        stackPrefix[at + word] = ((stackPrefix[at + word] as number) | (1 << (31 - (depth & 31)))) >>> 0;
      }
      stackNode[top] = bit === 1 ? right : left;
      stackDepth[top] = depth + 1;
      top++;
    }
  }
  source.progress?.(visited);
  return builder.finish();
}

function matches(prefix: Uint32Array, at: number, words: readonly number[], length: number): boolean {
  for (let w = 0; w * 32 < length; w++) {
    const keep = Math.min(32, length - w * 32);
    const mask = keep === 32 ? 0xffffffff : ~(0xffffffff >>> keep) >>> 0;
    if (((prefix[at + w] as number) & mask) >>> 0 !== ((words[w] ?? 0) & mask) >>> 0) return false;
  }
  return true;
}
