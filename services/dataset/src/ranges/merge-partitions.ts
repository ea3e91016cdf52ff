import { NONE, type RangeTable } from '../format/index.js';
import { compareAt } from './address.js';
import { GrowableU32, type Partition } from './partition.js';

/**
 * Resolves one piece: gets the value id of every source at that piece (NONE where a source has
 * nothing) and returns the record index for it, or NONE for "no data".
 */
export type PieceResolver = (values: Uint32Array) => number;

export interface MergeProgress {
  (done: number, total: number): void;
}

/**
 * The merge: a sweep over the union of all sources' boundaries. Every source is a complete
 * partition, so between two consecutive boundaries each source has exactly one value; `resolve`
 * turns those values into a record, and a piece whose record equals the previous piece's is
 * folded into it. The result partitions the whole space and starts at address 0.
 */
export function mergePartitions(sources: readonly Partition[], resolve: PieceResolver, progress?: MergeProgress): RangeTable {
  const first = sources[0];
  if (first === undefined) throw new Error('mergePartitions needs at least one source');
  const words = first.words;
  if (sources.some((source) => source.words !== words)) throw new Error('sources mix address families');

  const cursor = new Uint32Array(sources.length);
  const values = new Uint32Array(sources.length);
  const starts = new GrowableU32(1 << 16);
  const records = new GrowableU32(1 << 14);
  const position = new Uint32Array(words);
  const total = sources.reduce((sum, source) => sum + source.values.length, 0);
  let consumed = sources.length;
  let nextReport = 0;

  for (;;) {
    for (let s = 0; s < sources.length; s++) values[s] = (sources[s] as Partition).values[cursor[s] as number] as number;
    const record = resolve(values);
    if (records.length === 0 || records.get(records.length - 1) !== record) {
      starts.pushFrom(position, 0, words);
      records.push(record);
    }
    // The next boundary is the smallest next start among the sources.
    let nextSource = -1;
    for (let s = 0; s < sources.length; s++) {
      const source = sources[s] as Partition;
      const at = (cursor[s] as number) + 1;
      if (at >= source.values.length) continue;
      if (nextSource < 0) {
        nextSource = s;
        continue;
      }
      const best = sources[nextSource] as Partition;
      if (compareAt(source.starts, at * words, best.starts, ((cursor[nextSource] as number) + 1) * words, words) < 0)
        nextSource = s;
    }
    if (nextSource < 0) break;
    const best = sources[nextSource] as Partition;
    const boundary = ((cursor[nextSource] as number) + 1) * words;
    for (let w = 0; w < words; w++) position[w] = best.starts[boundary + w] as number;
    for (let s = 0; s < sources.length; s++) {
      const source = sources[s] as Partition;
      const at = (cursor[s] as number) + 1;
      if (at < source.values.length && compareAt(source.starts, at * words, position, 0, words) === 0) {
        cursor[s] = at;
        consumed++;
      }
    }
    if (progress && consumed >= nextReport) {
      progress(consumed, total);
      nextReport = consumed + 65536;
    }
  }
  progress?.(total, total);
  return { starts: starts.view(), records: records.view() };
}

/** Number of ranges in a table that carry a record (not NONE). */
export function countCovered(table: RangeTable): number {
  let covered = 0;
  for (const record of table.records) if (record !== NONE) covered++;
  return covered;
}
