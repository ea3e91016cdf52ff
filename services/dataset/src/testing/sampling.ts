import { seededRandom } from '@ipdata/common/testing';
import type { Partition } from '../ranges/partition.js';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
export const random = seededRandom;

/** Index of the range holding `address` (binary search over the starts). */
export function rangeIndex(partition: Partition, address: Uint32Array): number {
  const words = partition.words;
  let low = 0;
  let high = partition.values.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    let order = 0;
    for (let w = 0; w < words && order === 0; w++) {
      const a = partition.starts[mid * words + w] as number;
      const b = address[w] as number;
      order = a < b ? -1 : a > b ? 1 : 0;
    }
    if (order <= 0) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** 1,000 uniformly random addresses plus 1,000 picked inside random enumerated ranges. */
export function sampleAddresses(partition: Partition, next: () => number): Uint32Array[] {
  const words = partition.words;
  const word = () => Math.floor(next() * 0x100000000) >>> 0;
  const samples: Uint32Array[] = [];
  for (let i = 0; i < 1000; i++) samples.push(Uint32Array.from({ length: words }, word));
  for (let i = 0; i < 1000; i++) {
    const index = Math.floor(next() * partition.values.length);
    const address = partition.starts.slice(index * words, index * words + words);
    address[words - 1] = ((address[words - 1] as number) + (i % 2 === 0 ? 0 : Math.floor(next() * 4))) >>> 0;
    samples.push(address);
  }
  return samples;
}
