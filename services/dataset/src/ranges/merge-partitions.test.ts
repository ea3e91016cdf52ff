import { formatIpv6, parseIpv6 } from '@ipdata/common/ip';
import { describe, expect, it } from 'vitest';
import { NONE } from '../format/index.js';
import { mergePartitions } from './merge-partitions.js';
import { normalizeRanges } from './normalize-ranges.js';
import { PartitionBuilder, type Partition } from './partition.js';

const N = NONE;

/** IPv4 partition from [first, last, value] rows in order. */
function v4(rows: Array<[number, number, number]>): Partition {
  const builder = new PartitionBuilder(1);
  for (const [first, last, value] of rows) builder.add(Uint32Array.of(first), 0, Uint32Array.of(last), 0, value);
  return builder.finish();
}

/** Resolver that interns value tuples, the way the record table deduplicates records. */
function interning() {
  const records: string[] = [];
  const ids = new Map<string, number>();
  const resolve = (values: Uint32Array) => {
    if (values.every((value) => value === NONE)) return NONE;
    const key = [...values].map((value) => (value === NONE ? '-' : String(value))).join('/');
    let id = ids.get(key);
    if (id === undefined) {
      id = records.length;
      records.push(key);
      ids.set(key, id);
    }
    return id;
  };
  return { records, resolve };
}

describe('PartitionBuilder', () => {
  it('fills gaps with NONE, starts at address 0 and folds equal neighbours', () => {
    const partition = v4([
      [10, 19, 1],
      [20, 29, 1],
      [40, 49, 2],
    ]);
    expect([...partition.starts]).toEqual([0, 10, 30, 40, 50]);
    expect([...partition.values]).toEqual([N, 1, N, 2, N]);
  });

  it('ends without a trailing gap when the last range reaches the top of the space', () => {
    const partition = v4([[0, 0xffffffff, 7]]);
    expect([...partition.starts]).toEqual([0]);
    expect([...partition.values]).toEqual([7]);
  });

  it('refuses overlapping input', () => {
    const builder = new PartitionBuilder(1);
    builder.add(Uint32Array.of(10), 0, Uint32Array.of(20), 0, 1);
    expect(() => builder.add(Uint32Array.of(15), 0, Uint32Array.of(30), 0, 2)).toThrow(/overlap/);
  });
});

describe('mergePartitions', () => {
  it('splits at every boundary of every source and resolves each piece', () => {
    // geo:  [0-99 A][100-199 B]          asn: [50-149 X]
    const geo = v4([
      [0, 99, 0],
      [100, 199, 1],
    ]);
    const asn = v4([[50, 149, 0]]);
    const { records, resolve } = interning();
    const table = mergePartitions([geo, asn], resolve);
    expect([...table.starts]).toEqual([0, 50, 100, 150, 200]);
    expect([...table.records].map((r) => (r === N ? null : records[r]))).toEqual(['0/-', '0/0', '1/0', '1/-', null]);
  });

  it('merges adjacent pieces with equal records and deduplicates records', () => {
    // Source 1 has a boundary at 50 that source 2 does not care about; both sides resolve to the
    // same record, so the pieces fold into one range. The same record recurs later (200-299)
    // and is reused, not duplicated.
    const a = v4([
      [0, 49, 5],
      [50, 99, 5],
      [200, 299, 5],
    ]);
    const b = v4([
      [0, 99, 9],
      [200, 299, 9],
    ]);
    const { records, resolve } = interning();
    const table = mergePartitions([a, b], resolve);
    expect([...table.starts]).toEqual([0, 100, 200, 300]);
    expect([...table.records]).toEqual([0, N, 0, N]);
    expect(records).toEqual(['5/9']);
  });

  it('turns address space no source covers into NONE ranges, from address 0', () => {
    const table = mergePartitions([v4([[1000, 1999, 1]]), v4([[5000, 5999, 2]])], interning().resolve);
    expect([...table.starts]).toEqual([0, 1000, 2000, 5000, 6000]);
    expect(table.records[0]).toBe(N);
    expect(table.records[2]).toBe(N);
    expect(table.records[4]).toBe(N);
  });

  it('works on 128-bit addresses', () => {
    const builder = new PartitionBuilder(4);
    const first = new Uint32Array(4);
    const last = new Uint32Array(4);
    parseIpv6('2001:db8::', first);
    parseIpv6('2001:db8::ffff', last);
    builder.add(first, 0, last, 0, 3);
    const table = mergePartitions([builder.finish()], interning().resolve);
    expect(table.records.length).toBe(3);
    expect(formatIpv6(table.starts, 4)).toBe('2001:db8::');
    expect(formatIpv6(table.starts, 8)).toBe('2001:db8::1:0');
  });
});

describe('normalizeRanges', () => {
  it('lets the later-starting (more specific) row win where rows overlap', () => {
    const rows = [
      [100, 999, 1], // a large block
      [300, 399, 2], // a sub-allocation inside it
      [900, 1099, 3], // overlapping its end
    ];
    const partition = normalizeRanges({
      words: 1,
      firsts: Uint32Array.from(rows.map((row) => row[0] as number)),
      lasts: Uint32Array.from(rows.map((row) => row[1] as number)),
      values: Uint32Array.from(rows.map((row) => row[2] as number)),
    });
    expect([...partition.starts]).toEqual([0, 100, 300, 400, 900, 1100]);
    expect([...partition.values]).toEqual([N, 1, 2, 1, 3, N]);
  });
});
