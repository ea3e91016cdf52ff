import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalIp } from './canonical-ip.js';
import { formatIpv4, formatIpv6, writeIpv4Ascii } from './format-ip.js';
import { parseIpv4, parseIpv6 } from './parse-ip.js';

/** WHATWG URL serialises IPv6 hosts in RFC 5952 form: a reference independent of our code. */
function urlIpv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

const word = fc.integer({ min: 0, max: 0xffffffff });
// Words with many zero groups, so the "::" run choice (longest, first on a tie, not a single group) is exercised.
const sparseWord = fc.oneof(
  word,
  fc.constant(0),
  fc.integer({ min: 0, max: 0xffff }),
  fc.integer({ min: 0, max: 0xffff }).map((g) => g * 65536),
);
const ipv6Words = fc.array(sparseWord, { minLength: 4, maxLength: 4 });

describe('formatIpv6', () => {
  it('writes RFC 5952 text', () => {
    const words = new Uint32Array(4);
    for (const text of ['::', '::1', '2001:db8::1:0:0:1', '2001:0:0:1::1', 'fe80::', '2001:db8:0:1:1:1:1:1', '::ffff:1.2.3.4']) {
      expect(parseIpv6(text, words)).toBe(true);
      expect(formatIpv6(words, 0)).toBe(text === '::ffff:1.2.3.4' ? '::ffff:102:304' : text);
    }
  });

  it('reads words at an offset', () => {
    expect(formatIpv6(Uint32Array.of(7, 0x20010db8, 0, 0, 1), 1)).toBe('2001:db8::1');
  });

  it('round-trips through the parser and matches the WHATWG URL serialiser', () => {
    const out = new Uint32Array(4);
    fc.assert(
      fc.property(ipv6Words, (words) => {
        const text = formatIpv6(words);
        expect(isIPv6(text)).toBe(true);
        expect(parseIpv6(text, out)).toBe(true);
        expect([...out]).toEqual(words);
        expect(text).toBe(urlIpv6(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('formatIpv4', () => {
  it('round-trips through the parser for every value', () => {
    fc.assert(
      fc.property(word, (value) => {
        expect(parseIpv4(formatIpv4(value))).toBe(value);
      }),
      { numRuns: 5000 },
    );
    for (const value of [0, 1, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff]) expect(parseIpv4(formatIpv4(value))).toBe(value);
  });

  it('writes the same text as ASCII bytes in place, with or without a prefix length', () => {
    fc.assert(
      fc.property(word, fc.integer({ min: -1, max: 32 }), fc.nat(8), (value, prefix, at) => {
        const target = new Uint8Array(40).fill(120);
        const end = writeIpv4Ascii(target, at, value, prefix);
        const expected = prefix < 0 ? formatIpv4(value) : `${formatIpv4(value)}/${prefix}`;
        expect(Buffer.from(target.subarray(at, end)).toString('latin1')).toBe(expected);
        expect(target[end]).toBe(120);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('canonicalIp properties', () => {
  it('is the identity on formatted text and a fixed point', () => {
    fc.assert(
      fc.property(ipv6Words, word, (words, v4) => {
        const mapped = words[0] === 0 && words[1] === 0 && words[2] === 0xffff;
        const six = formatIpv6(words);
        expect(canonicalIp(six)).toEqual(mapped ? { family: 4, text: formatIpv4(words[3] as number) } : { family: 6, text: six });
        const four = formatIpv4(v4);
        expect(canonicalIp(four)).toEqual({ family: 4, text: four });
        expect(canonicalIp(`::ffff:${four}`)).toEqual({ family: 4, text: four });
        const again = canonicalIp(six);
        expect(again && canonicalIp(again.text)).toEqual(again);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives one text for every spelling of an IPv6 address', () => {
    fc.assert(
      fc.property(ipv6Words, fc.boolean(), (words, upper) => {
        const groups = words.flatMap((w) => [w >>> 16, w & 0xffff]);
        // The full, zero-padded spelling: 8 groups of 4 hex digits.
        let full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        if (upper) full = full.toUpperCase();
        expect(canonicalIp(full)?.text).toBe(canonicalIp(formatIpv6(words))?.text);
      }),
      { numRuns: 3000 },
    );
  });
});
