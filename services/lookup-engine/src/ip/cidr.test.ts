import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4RangeToCidrs, ipv6RangeToCidrs } from './cidr.js';
import { parseIpv4, parseIpv6 } from './parse-ip.js';
import { wordsToBigInt } from './cidr.js';

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
    expect(ipv6RangeToCidrs(0n, (1n << 128n) - 1n)).toEqual(['::/0']);
    const words = new Uint32Array(4);
    parseIpv6('2001:db8::', words);
    const first = wordsToBigInt(words);
    expect(ipv6RangeToCidrs(first, first + (1n << 96n) - 1n)).toEqual(['2001:db8::/32']);
  });

  it('covers exactly the range with aligned blocks', () => {
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
});
