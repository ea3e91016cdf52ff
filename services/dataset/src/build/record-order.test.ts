import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NONE, type DatasetRecord, type RangeTable } from '../format/index.js';
import { orderRecordsByCoverage } from './record-order.js';

const record = (name: string): DatasetRecord => ({
  fields: { city_name: name },
  asn: null,
  latitude: null,
  longitude: null,
  flags: 0,
});

/** Addresses each record covers, counted the slow way (BigInt). */
function coverage(table: RangeTable, words: 1 | 4, records: number): bigint[] {
  const sizes = Array.from({ length: records }, () => 0n);
  const value = (i: number) => {
    let v = 0n;
    for (let w = 0; w < words; w++) v = (v << 32n) | BigInt(table.starts[i * words + w] as number);
    return v;
  };
  const ranges = table.records.length;
  for (let i = 0; i < ranges; i++) {
    const r = table.records[i] as number;
    if (r === NONE) continue;
    const end = i + 1 < ranges ? value(i + 1) : 1n << BigInt(32 * words);
    sizes[r] = (sizes[r] as bigint) + end - value(i);
  }
  return sizes;
}

/** A partition: sorted unique starts beginning at 0, each range naming a record or NONE. */
const table = (words: 1 | 4, records: number) =>
  fc
    .uniqueArray(fc.bigInt({ min: 1n, max: (1n << BigInt(32 * words)) - 1n }), { maxLength: 40 })
    .chain((starts) =>
      fc.tuple(
        fc.constant(starts),
        fc.array(fc.integer({ min: -1, max: records - 1 }), { minLength: starts.length + 1, maxLength: starts.length + 1 }),
      ),
    )
    .map(([starts, owners]): RangeTable => {
      const sorted = [0n, ...starts.sort((a, b) => (a < b ? -1 : 1))];
      const out = new Uint32Array(sorted.length * words);
      sorted.forEach((start, i) => {
        for (let w = 0; w < words; w++) out[i * words + w] = Number((start >> BigInt(32 * (words - 1 - w))) & 0xffffffffn);
      });
      return { starts: out, records: Uint32Array.from(owners, (owner) => (owner < 0 ? NONE : owner)) };
    });

describe('orderRecordsByCoverage', () => {
  it('numbers records by IPv4 coverage, then IPv6, then build order, and every range keeps its record', () => {
    const records = Array.from({ length: 6 }, (_, i) => record(`r${i}`));
    fc.assert(
      fc.property(table(1, 6), table(4, 6), (ipv4, ipv6) => {
        const ordered = orderRecordsByCoverage(records, ipv4, ipv6);
        for (const [before, after] of [
          [ipv4, ordered.ipv4],
          [ipv6, ordered.ipv6],
        ] as const) {
          expect(after.starts).toBe(before.starts);
          before.records.forEach((r, i) =>
            expect(after.records[i] === NONE ? null : ordered.records[after.records[i] as number]).toBe(
              r === NONE ? null : records[r],
            ),
          );
        }
        const v4 = coverage(ipv4, 1, 6);
        const v6 = coverage(ipv6, 4, 6);
        const key = (r: DatasetRecord) => records.indexOf(r);
        for (let k = 1; k < ordered.records.length; k++) {
          const a = key(ordered.records[k - 1] as DatasetRecord);
          const b = key(ordered.records[k] as DatasetRecord);
          const va = v4[a] as bigint;
          const vb = v4[b] as bigint;
          // Float sums of IPv6 sizes are exact to 53 bits: compare what a float can tell apart.
          const wa = Number(v6[a]);
          const wb = Number(v6[b]);
          expect(va > vb || (va === vb && (wa > wb || (wa === wb && a < b))), `records ${a} then ${b}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('tells a /48 from a /64 high up in IPv6 and counts the last range to the end of the space', () => {
    const prefix = 0x2a010000;
    const ipv4: RangeTable = { starts: Uint32Array.of(0), records: Uint32Array.of(NONE) };
    const ipv6: RangeTable = {
      // ::/3.., a /64 (record 0), a /48 remainder (record 1), then everything up to the end (record 2).
      starts: Uint32Array.of(0, 0, 0, 0, prefix, 0, 0, 0, prefix, 1, 0, 0, prefix, 0x10000, 0, 0),
      records: Uint32Array.of(NONE, 0, 1, 2),
    };
    const ordered = orderRecordsByCoverage([record('a'), record('b'), record('c')], ipv4, ipv6);
    expect(ordered.records.map((r) => r.fields.city_name)).toEqual(['c', 'b', 'a']);
    expect([...ordered.ipv6.records]).toEqual([NONE, 2, 1, 0]);
  });
});
