import { describe, expect, it } from 'vitest';
import { asciiDomainName } from './domain-name.js';
import { reverseName } from './reverse-name.js';

describe('asciiDomainName', () => {
  it('answers the lower-case ASCII form', () => {
    expect(asciiDomainName('Example.COM')).toBe('example.com');
    expect(asciiDomainName('example.com.')).toBe('example.com');
    expect(asciiDomainName('münchen.de')).toBe('xn--mnchen-3ya.de');
    expect(asciiDomainName('xn--mnchen-3ya.de')).toBe('xn--mnchen-3ya.de');
    expect(asciiDomainName('_dmarc.example.com')).toBe('_dmarc.example.com');
    expect(asciiDomainName('a-b.c9.io')).toBe('a-b.c9.io');
    expect(asciiDomainName(`${'a'.repeat(63)}.com`)).toBe(`${'a'.repeat(63)}.com`);
  });

  it('refuses what is not a domain name', () => {
    const long = `${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}.com`;
    for (const input of [
      '',
      '.',
      'localhost',
      'example..com',
      '.example.com',
      '-a.example.com',
      'a-.example.com',
      `${'a'.repeat(64)}.com`,
      long,
      'exa mple.com',
      'example.com/path',
      'example.com?x',
      'example.com#x',
      'exa\tmple.com',
      'a%2e.com',
      'example.com／evil',
      'user@example.com',
      'example.com:80',
      '1.2.3.4',
      '0x7f.1',
      '2001:db8::1',
      '[::1]',
      'example.123',
      'a'.repeat(5000),
    ]) {
      expect(asciiDomainName(input), input).toBeUndefined();
    }
  });
});

describe('reverseName', () => {
  it('builds in-addr.arpa and ip6.arpa question names', () => {
    expect(reverseName('192.0.2.10')).toBe('10.2.0.192.in-addr.arpa');
    expect(reverseName('2001:db8::1')).toBe(`1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
    expect(reverseName('::ffff:192.0.2.1')).toBe(`1.0.2.0.0.0.0.c.f.f.f.f.${'0.'.repeat(20)}ip6.arpa`);
    for (const input of ['example.com', '1.2.3', '01.2.3.4', '::1%eth0', '']) expect(reverseName(input), input).toBeUndefined();
  });
});
