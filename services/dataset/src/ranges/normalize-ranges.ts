import { compareAt, decrementAt, incrementAt, type WordsPerAddress } from './address.js';
import { PartitionBuilder, type Partition } from './partition.js';

/** Rows of a range list as read from a CSV file: inclusive first/last addresses and a value id. */
export interface RangeRows {
  words: WordsPerAddress;
  firsts: Uint32Array;
  lasts: Uint32Array;
  values: Uint32Array;
}

/**
 * Turns possibly unsorted, possibly overlapping rows into a Partition. Where rows overlap, the
 * row that starts later wins (it is the more specific one: a sub-allocation inside a larger
 * block), then the one that ends first, then the later row. Overlaps are rare in the sources,
 * so the set of rows covering the current position stays tiny and is scanned linearly.
 */
export function normalizeRanges(rows: RangeRows): Partition {
  const { words, firsts, lasts, values } = rows;
  const count = values.length;
  const order = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => compareAt(firsts, a * words, firsts, b * words, words) || a - b,
  );
  const builder = new PartitionBuilder(words);
  const pos = new Uint32Array(words);
  const end = new Uint32Array(words);
  let active: number[] = [];
  let next = 0;
  if (count > 0) pos.set(firsts.subarray((order[0] as number) * words, (order[0] as number) * words + words));

  while (next < count || active.length > 0) {
    while (next < count && compareAt(firsts, (order[next] as number) * words, pos, 0, words) === 0) {
      active.push(order[next] as number);
      next++;
    }
    active = active.filter((row) => compareAt(lasts, row * words, pos, 0, words) >= 0);
    if (active.length === 0) {
      if (next >= count) break;
      const row = order[next] as number;
      pos.set(firsts.subarray(row * words, row * words + words));
      continue;
    }
    let winner = active[0] as number;
    for (const row of active) {
      const byFirst = compareAt(firsts, row * words, firsts, winner * words, words);
      const byLast = compareAt(lasts, row * words, lasts, winner * words, words);
      if (byFirst > 0 || (byFirst === 0 && (byLast < 0 || (byLast === 0 && row > winner)))) winner = row;
    }
    // The piece ends where the next row starts or the first covering row ends.
    let haveEnd = false;
    if (next < count) {
      const row = order[next] as number;
      end.set(firsts.subarray(row * words, row * words + words));
      decrementAt(end, 0, words);
      haveEnd = true;
    }
    for (const row of active) {
      if (!haveEnd || compareAt(lasts, row * words, end, 0, words) < 0) {
        end.set(lasts.subarray(row * words, row * words + words));
        haveEnd = true;
      }
    }
    builder.add(pos, 0, end, 0, values[winner] as number);
    pos.set(end);
    if (incrementAt(pos, 0, words)) break;
  }
  return builder.finish();
}
