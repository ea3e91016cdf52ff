import fc from 'fast-check';
import { wordsToBigInt } from '@ipdata/common/ip';
import { describe, expect, it } from 'vitest';
import { NONE } from '../format/index.js';
import { RecordAddresses } from './record-addresses.js';

const TOP = 1n << 128n;

function words(value: bigint): number[] {
  return [96n, 64n, 32n, 0n].map((shift) => Number((value >> shift) & 0xffffffffn));
}

describe('RecordAddresses', () => {
  it('sums IPv6 range sizes per record exactly, up to the whole space (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.bigInt({ min: 1n, max: TOP - 1n }), { maxLength: 40 }),
        fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 41, maxLength: 41 }),
        (cuts, owners) => {
          const starts = [0n, ...cuts.sort((a, b) => (a < b ? -1 : 1))];
          const records = starts.map((_, i) => ((owners[i] as number) < 0 ? NONE : (owners[i] as number)));
          const expected = [0n, 0n, 0n, 0n];
          starts.forEach((start, i) => {
            const next = i + 1 < starts.length ? (starts[i + 1] as bigint) : TOP;
            const owner = records[i] as number;
            if (owner !== NONE) expected[owner] = (expected[owner] as bigint) + next - start;
          });
          const table = { starts: Uint32Array.from(starts.flatMap(words)), records: Uint32Array.from(records) };
          const sums = new RecordAddresses(4, { starts: new Uint32Array([0]), records: new Uint32Array([NONE]) }, table);
          expect([0, 1, 2, 3].map((record) => sums.ipv6(record))).toEqual(expected);
          expect([0, 1, 2, 3].map((record) => sums.hasIpv6(record))).toEqual(expected.map((value) => value > 0n));
        },
      ),
    );
  });

  it('counts one range covering all of IPv6 as 2^128 and all of IPv4 as 2^32', () => {
    const sums = new RecordAddresses(
      1,
      { starts: new Uint32Array([0]), records: new Uint32Array([0]) },
      { starts: new Uint32Array(4), records: new Uint32Array([0]) },
    );
    expect(sums.ipv6(0)).toBe(TOP);
    expect(sums.ipv4[0]).toBe(2 ** 32);
    expect(wordsToBigInt(new Uint32Array(4))).toBe(0n);
  });

  it('stays exact past 2^53 in one limb: more than 2^21 neighbouring ranges of 2^32 - 1 addresses (limb carries)', () => {
    // Range i starts at i * (2^32 - 1): every size has 2^32 - 1 in its lowest word, so the lowest
    // limb alone would pass 2^53 (and lose precision) without the carry.
    const count = 2 ** 21 + 3;
    const starts = new Uint32Array((count + 1) * 4);
    const records = new Uint32Array(count + 1);
    for (let i = 1; i <= count; i++) {
      starts[i * 4 + 2] = i - 1;
      starts[i * 4 + 3] = 2 ** 32 - i;
    }
    records[count] = NONE; // the rest of the space
    const sums = new RecordAddresses(1, { starts: new Uint32Array([0]), records: new Uint32Array([NONE]) }, { starts, records });
    expect(sums.ipv6(0)).toBe(BigInt(count) * 0xffffffffn);
  });
});
