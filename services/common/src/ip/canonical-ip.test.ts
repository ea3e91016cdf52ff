import { describe, expect, it } from 'vitest';
import { canonicalIp, rateLimitKey } from './canonical-ip.js';

describe('canonicalIp', () => {
  it('keeps a valid IPv4 address as it is', () => {
    expect(canonicalIp('10.9.9.9')).toEqual({ family: 4, text: '10.9.9.9' });
    expect(canonicalIp('0.0.0.0')).toEqual({ family: 4, text: '0.0.0.0' });
    expect(canonicalIp('255.255.255.255')).toEqual({ family: 4, text: '255.255.255.255' });
  });

  it('answers an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(canonicalIp('::ffff:10.9.9.9')).toEqual({ family: 4, text: '10.9.9.9' });
    expect(canonicalIp('::FFFF:a09:909')).toEqual({ family: 4, text: '10.9.9.9' });
    expect(canonicalIp('0:0:0:0:0:ffff:10.9.9.9')).toEqual({ family: 4, text: '10.9.9.9' });
  });

  it('writes IPv6 in RFC 5952 form', () => {
    expect(canonicalIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toEqual({ family: 6, text: '2001:db8::1' });
    expect(canonicalIp('2001:db8:0:0:1:0:0:1')).toEqual({ family: 6, text: '2001:db8::1:0:0:1' });
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toEqual({ family: 6, text: '2001:db8:0:1:1:1:1:1' });
    expect(canonicalIp('0:0:0:0:0:0:0:0')).toEqual({ family: 6, text: '::' });
    // Not mapped (::a.b.c.d is the deprecated IPv4-compatible form): stays IPv6.
    expect(canonicalIp('::10.9.9.9')).toEqual({ family: 6, text: '::a09:909' });
  });

  it('refuses padded, zero-padded, empty and malformed text instead of guessing', () => {
    for (const text of [
      '',
      ' 10.9.9.9',
      '10.9.9.9 ',
      '\t10.9.9.9',
      '010.9.9.9',
      '10.09.9.9',
      '::ffff:010.9.9.9',
      '10.9.9',
      '10.9.9.9.9',
      '10.9.9.256',
      '0x0a.9.9.9',
      '167381257',
      'fe80::1%eth0',
      '[::1]',
      '::1 ',
      '1::2::3',
      'localhost',
    ]) {
      expect(canonicalIp(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe('rateLimitKey', () => {
  it('keys IPv4 by the canonical address, whatever form it came in', () => {
    expect(rateLimitKey('10.9.9.9')).toBe('10.9.9.9');
    expect(rateLimitKey('::ffff:10.9.9.9')).toBe('10.9.9.9');
    expect(rateLimitKey('::ffff:a09:909')).toBe('10.9.9.9');
    expect(rateLimitKey('10.9.9.10')).toBe('10.9.9.10');
  });

  it('gives no key for the variants that slipped past the raw-string limit', () => {
    for (const text of [' 10.9.9.9', '010.9.9.9', '', '10.9.9.9\n', 'not an ip']) {
      expect(rateLimitKey(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('groups IPv6 addresses by their /64 prefix', () => {
    const key = rateLimitKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(key);
    expect(rateLimitKey('2001:0DB8:0001:0002:abcd:0:0:7')).toBe(key);
    expect(rateLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitKey('2001:db8:1:3::1')).not.toBe(key);
    expect(rateLimitKey('::1')).toBe('::/64');
    expect(rateLimitKey('fe80::1')).toBe('fe80::/64');
    expect(rateLimitKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
  });

  it('leaves no state behind between calls', () => {
    expect(rateLimitKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(canonicalIp('2001:db8:1:2::1')).toEqual({ family: 6, text: '2001:db8:1:2::1' });
  });
});
