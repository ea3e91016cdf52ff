import { formatIpv4, parseIpv4 } from '@ipdata/common/ip';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddress } from './address-check.js';

describe('checkAddress', () => {
  it('canonicalises, maps ::ffff: to IPv4 and names special-purpose blocks like the engine', () => {
    expect(checkAddress('8.8.8.8')).toEqual({ family: 4, text: '8.8.8.8', reserved: ReservedReason.RESERVED_REASON_UNSPECIFIED });
    expect(checkAddress('::ffff:10.1.2.3')).toEqual({
      family: 4,
      text: '10.1.2.3',
      reserved: ReservedReason.RESERVED_REASON_PRIVATE,
    });
    expect(checkAddress('2001:DB8:0:0::1')).toEqual({
      family: 6,
      text: '2001:db8::1',
      reserved: ReservedReason.RESERVED_REASON_DOCUMENTATION,
    });
    expect(checkAddress('2606:4700:4700::1111')?.reserved).toBe(ReservedReason.RESERVED_REASON_UNSPECIFIED);
    expect(checkAddress('127.0.0.1')?.reserved).toBe(ReservedReason.RESERVED_REASON_LOOPBACK);
  });

  it('answers an accepted IPv4 input as its canonical text (the input itself: one spelling per address)', () => {
    const octet = fc.oneof(fc.nat(255).map(String), fc.constantFrom('00', '01', '256', '1000', ''));
    fc.assert(
      fc.property(fc.array(octet, { minLength: 3, maxLength: 5 }), (octets) => {
        const text = octets.join('.');
        const checked = checkAddress(text);
        if (checked !== undefined) expect(checked.text).toBe(formatIpv4(parseIpv4(text)));
        expect(checked === undefined).toBe(parseIpv4(text) < 0);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what the engine refuses', () => {
    for (const text of ['', ' 8.8.8.8', '010.0.0.1', '1.2.3', 'fe80::1%eth0', 'example.com', '1.2.3.4/24']) {
      expect(checkAddress(text), text).toBeUndefined();
    }
  });
});
