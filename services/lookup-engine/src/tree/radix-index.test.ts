import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RadixIndex } from './radix-index.js';

/** The reference: a plain binary search for the last start <= address. */
function referenceFind(starts: Uint32Array, words: number, address: readonly number[]): number {
  let lo = 0;
  let hi = starts.length / words - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    let cmp = 0;
    for (let w = 0; w < words && cmp === 0; w++) {
      const s = starts[mid * words + w] as number;
      const a = address[w] as number;
      cmp = s < a ? -1 : s > a ? 1 : 0;
    }
    if (cmp <= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const NONE = 0xffffffff;

/** Record index per range: a few records shared by many ranges, some ranges without data. */
function recordsFor(rangeCount: number, seed: number): Uint32Array {
  return Uint32Array.from({ length: rangeCount }, (_, i) => ((i * 7 + seed) % 11 === 0 ? NONE : (i * 13 + seed) % 17));
}

/** Sorted unique IPv4 range starts beginning at 0, clustered so deep nodes get built. */
const ipv4Starts = fc
  .tuple(
    fc.array(u32, { maxLength: 300 }),
    fc.array(fc.tuple(u32, fc.array(fc.integer({ min: 0, max: 4095 }), { maxLength: 60 })), { maxLength: 6 }),
  )
  .map(([spread, clusters]) => {
    const all = new Set<number>([0, ...spread]);
    for (const [base, offsets] of clusters)
      for (const offset of offsets) all.add(Math.min(0xffffffff, (base & 0xfffff000) + offset) >>> 0);
    return Uint32Array.from([...all].sort((a, b) => a - b));
  });

// Small roots and strides force deep nodes, path compression and single-candidate slots.
const options = [
  {},
  { rootStride: 16, maxStride: 8, leafMax: 1 },
  { rootStride: 8, maxStride: 4, targetRun: 1, leafMax: 2 },
  { rootStride: 2, maxStride: 2, targetRun: 4, leafMax: 1 },
];

describe('RadixIndex (IPv4) against a sorted-array search', () => {
  for (const option of options) {
    it(`agrees for random and boundary addresses with ${JSON.stringify(option)}`, () => {
      fc.assert(
        fc.property(ipv4Starts, fc.array(u32, { maxLength: 200 }), fc.nat(100), (starts, probes, seed) => {
          const records = recordsFor(starts.length, seed);
          const index = RadixIndex.build(starts, 1, records, option);
          const boundaries: number[] = [0, 0xffffffff];
          for (const start of starts) boundaries.push(start, Math.max(0, start - 1), Math.min(0xffffffff, start + 1));
          for (const address of [...probes, ...boundaries]) {
            const range = referenceFind(starts, 1, [address]);
            expect(index.find4(address)).toBe(range);
            expect(index.foundRecord).toBe(records[range]);
            expect(index.record4(address)).toBe(records[range]);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it('handles one /0 range, /32 ranges and the last address', () => {
    const whole = RadixIndex.build(Uint32Array.from([0]), 1, Uint32Array.from([7]));
    expect(whole.find4(0)).toBe(0);
    expect(whole.find4(0xffffffff)).toBe(0);
    expect(whole.record4(0xffffffff)).toBe(7);
    // 10.0.0.5/32 alone between two ranges, and a range holding only the last address.
    const starts = Uint32Array.from([0, 0x0a000005, 0x0a000006, 0xffffffff]);
    const index = RadixIndex.build(starts, 1, Uint32Array.from([0, 1, NONE, 3]), { leafMax: 1 });
    expect(index.find4(0x0a000004)).toBe(0);
    expect(index.find4(0x0a000005)).toBe(1);
    expect(index.find4(0x0a000006)).toBe(2);
    expect(index.find4(0xfffffffe)).toBe(2);
    expect(index.find4(0xffffffff)).toBe(3);
    expect(index.record4(0x0a000005)).toBe(1);
    expect(index.record4(0x0a000006)).toBe(NONE);
    expect(index.record4(0xffffffff)).toBe(3);
  });
});

/** IPv6 starts as 4 words each: a few shared prefixes with random tails, sorted, beginning at ::. */
const ipv6Starts = fc
  .tuple(
    fc.array(fc.tuple(u32, u32), { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(fc.nat(3), u32, u32, u32), { maxLength: 200 }),
  )
  .map(([prefixes, tails]) => {
    const keys = new Map<string, number[]>();
    keys.set('0,0,0,0', [0, 0, 0, 0]);
    for (const [p, a, b, c] of tails) {
      const [w0, w1] = prefixes[p % prefixes.length] as [number, number];
      // Mostly share the first word (and often the second) to force deep nodes.
      const words = [w0, (a & 1) === 0 ? w1 : a, b, (c & 0xffff0000) >>> 0];
      keys.set(words.join(','), words);
    }
    const sorted = [...keys.values()].sort((x, y) => {
      for (let w = 0; w < 4; w++) if (x[w] !== y[w]) return (x[w] as number) - (y[w] as number);
      return 0;
    });
    return Uint32Array.from(sorted.flat());
  });

describe('RadixIndex (IPv6) against a sorted-array search', () => {
  const ipv6Options = [{}, { leafMax: 2 }, { rootStride: 4, maxStride: 3, targetRun: 1, leafMax: 1 }];
  for (const option of ipv6Options) {
    it(`agrees for random and boundary addresses with ${JSON.stringify(option)}`, () => {
      fc.assert(
        fc.property(
          ipv6Starts,
          fc.array(fc.tuple(u32, u32, u32, u32), { maxLength: 100 }),
          fc.nat(100),
          (starts, probes, seed) => {
            const records = recordsFor(starts.length / 4, seed);
            const index = RadixIndex.build(starts, 4, records, option);
            const scratch = new Uint32Array(4);
            const addresses: number[][] = probes.map((p) => [...p]);
            addresses.push([0, 0, 0, 0], [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
            for (let i = 0; i < starts.length / 4; i++) {
              const start = [...starts.subarray(i * 4, i * 4 + 4)];
              addresses.push(start, [start[0], start[1], start[2], ((start[3] as number) + 1) >>> 0] as number[]);
              // Probe inside the same prefix with the first word of the start.
              addresses.push([start[0] as number, 0xffffffff, 0xffffffff, 0xffffffff]);
            }
            for (const address of addresses) {
              scratch.set(address);
              const range = referenceFind(starts, 4, address);
              expect(index.find6(scratch)).toBe(range);
              expect(index.foundRecord).toBe(records[range]);
              expect(index.record6(scratch)).toBe(records[range]);
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('covers ::/0 and ::/128 and the last address', () => {
    const index = RadixIndex.build(
      Uint32Array.from([0, 0, 0, 0, 0, 0, 0, 1, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]),
      4,
      Uint32Array.from([0, 1, 2]),
      { leafMax: 1 },
    );
    expect(index.find6(Uint32Array.from([0, 0, 0, 0]))).toBe(0);
    expect(index.find6(Uint32Array.from([0, 0, 0, 1]))).toBe(1);
    expect(index.find6(Uint32Array.from([0xffffffff, 0xffffffff, 0xffffffff, 0xfffffffe]))).toBe(1);
    expect(index.find6(Uint32Array.from([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]))).toBe(2);
  });
});

describe('RadixIndex input checks', () => {
  it('refuses starts that do not ascend', () => {
    expect(() => RadixIndex.build(Uint32Array.from([0, 5, 5]), 1, new Uint32Array(3))).toThrow(/must ascend \(range 2\)/);
    expect(() => RadixIndex.build(Uint32Array.from([0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 8]), 4, new Uint32Array(3))).toThrow(
      /must ascend/,
    );
  });
});
