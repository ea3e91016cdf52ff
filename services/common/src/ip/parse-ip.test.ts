import { isIPv4, isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIpv4, formatIpv6 } from './format-ip.js';
import { mappedIpv4, parseIpv4, parseIpv6 } from './parse-ip.js';

/** WHATWG URL serialises IPv6 hosts in RFC 5952 form: a reference independent of our code. */
function canonicalIpv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

describe('parseIpv4', () => {
  it('parses valid addresses to unsigned integers', () => {
    expect(parseIpv4('0.0.0.0')).toBe(0);
    expect(parseIpv4('1.2.3.4')).toBe(0x01020304);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
  });

  it('refuses malformed input like node:net does', () => {
    for (const text of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '1..2.3',
      ' 1.2.3.4',
      '1.2.3.4 ',
      'a.b.c.d',
      '1.2.3.-4',
    ]) {
      expect(parseIpv4(text)).toBe(-1);
      expect(isIPv4(text)).toBe(false);
    }
  });

  it('round-trips every address', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (value) => {
        expect(parseIpv4(formatIpv4(value))).toBe(value);
      }),
    );
  });
});

describe('parseIpv6', () => {
  const out = new Uint32Array(4);

  it('parses compressed, full and IPv4-embedded forms', () => {
    expect(parseIpv6('::', out) && [...out]).toEqual([0, 0, 0, 0]);
    expect(parseIpv6('::1', out) && [...out]).toEqual([0, 0, 0, 1]);
    expect(parseIpv6('2001:db8::8a2e:370:7334', out) && [...out]).toEqual([0x20010db8, 0, 0x8a2e, 0x03707334]);
    expect(parseIpv6('::ffff:192.0.2.128', out) && mappedIpv4(out)).toBe(0xc0000280);
    expect(parseIpv6('FFFF:ffff:ffff:ffff:ffff:ffff:ffff:ffff', out) && [...out]).toEqual([
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
    ]);
  });

  it('refuses malformed input', () => {
    for (const text of [
      ':',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      'g::1',
      '1:2:3:4:5:6:7:',
      'fe80::1%eth0',
      '::1.2.3',
      '1.2.3.4',
    ]) {
      expect(parseIpv6(text, out)).toBe(false);
    }
  });

  it('agrees with node:net on validity for arbitrary text over the address alphabet', () => {
    // No '%': node:net accepts zone ids, which a lookup refuses. Non-ASCII look-alikes included.
    const alphabet = [...'0123456789abcdefABCDEFgG:.', '\u0660', '\uff10', 'é', ' '];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 46 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, (candidate) => {
        expect(parseIpv6(candidate, out)).toBe(isIPv6(candidate));
      }),
      { numRuns: 5000 },
    );
    for (const sample of ['1:2:3:4:5:6:7:8', '::ffff:1.2.3.4', 'A:b:C:d:E:f:0:1', '1::', '::']) {
      expect(parseIpv6(sample, out)).toBe(isIPv6(sample));
    }
  });

  it('agrees with node:net on validity and with the URL parser on value for generated addresses', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (groups, from, span) => {
          const hex = groups.map((g) => g.toString(16));
          const to = Math.min(8, from + span);
          const text = span > 0 && from < 8 ? `${hex.slice(0, from).join(':')}::${hex.slice(to).join(':')}` : hex.join(':');
          const valid = isIPv6(text);
          expect(parseIpv6(text, out)).toBe(valid);
          if (valid) expect(formatIpv6(out)).toBe(canonicalIpv6(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
