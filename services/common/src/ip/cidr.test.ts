import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bigIntToWords,
  forEachIpv4Cidr,
  forEachIpv6Cidr,
  ipv4PrefixContaining,
  ipv4RangeToCidrs,
  ipv6RangeToCidrs,
  wordsToBigInt,
} from './cidr.js';
import { parseIpv4, parseIpv6 } from './parse-ip.js';

const TOP_V6 = (1n << 128n) - 1n;

function ipv4Blocks(first: number, last: number): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  forEachIpv4Cidr(first, last, (network, prefixLength) => blocks.push([network, prefixLength]));
  return blocks;
}

function ipv6Blocks(first: bigint, last: bigint): Array<[bigint, number]> {
  const blocks: Array<[bigint, number]> = [];
  forEachIpv6Cidr(first, last, (network, prefixLength) => blocks.push([network, prefixLength]));
  return blocks;
}

describe('range to CIDR blocks', () => {
  it('gives known answers', () => {
    expect(ipv4RangeToCidrs(0, 0xffffffff)).toEqual(['0.0.0.0/0']);
    expect(ipv4RangeToCidrs(parseIpv4('1.0.0.0'), parseIpv4('1.0.0.255'))).toEqual(['1.0.0.0/24']);
    expect(ipv4RangeToCidrs(parseIpv4('10.0.0.1'), parseIpv4('10.0.0.6'))).toEqual([
      '10.0.0.1/32',
      '10.0.0.2/31',
      '10.0.0.4/31',
      '10.0.0.6/32',
    ]);
    expect(ipv4RangeToCidrs(0x80000000, 0xffffffff)).toEqual(['128.0.0.0/1']);
    expect(ipv6RangeToCidrs(0n, TOP_V6)).toEqual(['::/0']);
    const words = new Uint32Array(4);
    parseIpv6('2001:db8::', words);
    const first = wordsToBigInt(words);
    expect(ipv6RangeToCidrs(first, first + (1n << 96n) - 1n)).toEqual(['2001:db8::/32']);
    expect(ipv6RangeToCidrs(TOP_V6, TOP_V6)).toEqual(['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128']);
  });

  it('finds the one block of a range that holds an address, without listing the blocks', () => {
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(u32, u32, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, at) => {
        const [first, last] = a <= b ? [a, b] : [b, a];
        const address = Math.min(last, first + Math.floor(at * (last - first + 1)));
        const holding = ipv4Blocks(first, last).filter(
          ([network, length]) => length === 0 || (address ^ network) >>> (32 - length) === 0,
        );
        expect(holding).toHaveLength(1);
        expect(ipv4PrefixContaining(first, last, address)).toBe(holding[0]?.[1]);
      }),
      { numRuns: 2_000 },
    );
    expect(ipv4PrefixContaining(10, 20, 9)).toBe(-1);
    expect(ipv4PrefixContaining(10, 20, 21)).toBe(-1);
    expect(ipv4PrefixContaining(0, 0xffffffff, 0xffffffff)).toBe(0);
  });

  it('visits blocks as (network, prefix length) for the dataset ASN table', () => {
    expect(ipv4Blocks(0x01000000, 0x010001ff)).toEqual([[0x01000000, 23]]);
    expect(ipv4Blocks(0x0a000001, 0x0a000004)).toEqual([
      [0x0a000001, 32],
      [0x0a000002, 31],
      [0x0a000004, 32],
    ]);
    expect(ipv4Blocks(0, 0xffffffff)).toEqual([[0, 0]]);
    expect(ipv6Blocks(0x20010db8n << 96n, (0x20010db8n << 96n) | ((1n << 96n) - 1n))).toEqual([[0x20010db8n << 96n, 32]]);
    expect(ipv6Blocks(0n, TOP_V6)).toEqual([[0n, 0]]);
  });

  it('covers exactly an IPv4 range with aligned blocks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (a, b) => {
        const [first, last] = a <= b ? [a, b] : [b, a];
        let next = first;
        for (const block of ipv4RangeToCidrs(first, last)) {
          const [address, length] = block.split('/') as [string, string];
          const start = parseIpv4(address);
          const size = 2 ** (32 - Number(length));
          expect(start).toBe(next);
          expect(start % size).toBe(0);
          next = start + size;
        }
        expect(next).toBe(last + 1);
      }),
    );
  });

  it('covers exactly an IPv6 range with aligned blocks, none of which could be merged', () => {
    const address = fc.bigInt({ min: 0n, max: TOP_V6 });
    // Ranges near each other too, so small blocks at both ends occur.
    const range = fc.oneof(
      fc.tuple(address, address),
      fc
        .tuple(address, fc.bigInt({ min: 0n, max: 1n << 20n }))
        .map(([a, span]) => [a, a + span > TOP_V6 ? TOP_V6 : a + span] as const),
    );
    fc.assert(
      fc.property(range, ([a, b]) => {
        const [first, last] = a <= b ? [a, b] : [b, a];
        let next = first;
        const blocks = ipv6Blocks(first, last);
        for (const [network, length] of blocks) {
          const size = 1n << BigInt(128 - length);
          expect(network).toBe(next);
          expect(network % size).toBe(0n);
          next = network + size;
        }
        expect(next).toBe(last + 1n);
        // Minimal: no two neighbours of one length form the aligned block one bit shorter.
        for (let i = 1; i < blocks.length; i++) {
          const [left, length] = blocks[i - 1] as [bigint, number];
          const [, rightLength] = blocks[i] as [bigint, number];
          if (length === rightLength) expect(left % (1n << BigInt(129 - length))).not.toBe(0n);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('converts between 128-bit values and words both ways', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: TOP_V6 }), (value) => {
        const words = new Uint32Array(6);
        bigIntToWords(value, words, 2);
        expect(wordsToBigInt(words, 2)).toBe(value);
      }),
    );
  });
});
