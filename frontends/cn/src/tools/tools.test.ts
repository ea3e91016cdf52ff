import { IPv4, IPv4CidrRange, IPv6, IPv6CidrRange } from 'ip-num';
import { describe, expect, it } from 'vitest';
import { MSG } from './ip-input.js';
import { convertIp } from './ip-convert.tool.js';
import { calculateIpv4Subnet } from './ipv4-calculator.tool.js';
import { ipv4ToLong, longToIpv4 } from './ipv4-long.tool.js';
import { convertMask } from './mask-converter.tool.js';
import { netmaskToWildcard, wildcardToNetmask } from './netmask-inverse.tool.js';
import { calculateNetwork } from './network-calculator.tool.js';

describe('/ipconvert', () => {
  it('gives every notation of an IPv4 address (hand-checked)', () => {
    expect(convertIp(' 192.168.1.1 ')).toEqual({
      ok: true,
      value: {
        family: 4,
        address: '192.168.1.1',
        expanded: '::ffff:192.168.1.1',
        decimal: '3232235777',
        hex: '0xC0A80101',
        binary: '11000000.10101000.00000001.00000001',
      },
    });
  });

  it('reads integers and 0x numbers back to the address, IPv4 up to 2^32-1 and IPv6 above', () => {
    expect(convertIp('3232235777').ok && convertIp('3232235777')).toMatchObject({ value: { address: '192.168.1.1' } });
    expect(convertIp('0xC0A80101')).toMatchObject({ value: { address: '192.168.1.1' } });
    expect(convertIp('4294967295')).toMatchObject({ value: { family: 4, address: '255.255.255.255' } });
    expect(convertIp('4294967296')).toMatchObject({ value: { family: 6, address: '::1:0:0' } });
    expect(convertIp(String(2n ** 128n))).toEqual({ ok: false, error: MSG.badIp });
  });

  it('gives every notation of an IPv6 address (hand-checked, RFC 5952 compression)', () => {
    const result = convertIp('2001:0DB8:0000:0000:0000:0000:0000:0001');
    expect(result).toMatchObject({
      ok: true,
      value: {
        family: 6,
        address: '2001:db8::1',
        expanded: '2001:0db8:0000:0000:0000:0000:0000:0001',
        decimal: '42540766411282592856903984951653826561',
        hex: '0x20010DB8000000000000000000000001',
      },
    });
    if (result.ok) expect(result.value.binary.split(':')).toHaveLength(8);
    expect(convertIp('2001:db8:0:0:1:0:0:1')).toMatchObject({ value: { address: '2001:db8::1:0:0:1' } });
  });

  it('agrees with ip-num on decimal values', () => {
    for (const ip of ['0.0.0.0', '8.8.8.8', '255.255.255.255', '10.20.30.40']) {
      expect(convertIp(ip)).toMatchObject({ value: { decimal: IPv4.fromDecimalDottedString(ip).getValue().toString() } });
    }
    for (const ip of ['::', '::1', 'fe80::1', '2400:cb00::abcd']) {
      expect(convertIp(ip)).toMatchObject({ value: { decimal: IPv6.fromString(ip).getValue().toString() } });
    }
  });

  it('answers bad input in Chinese', () => {
    expect(convertIp('')).toEqual({ ok: false, error: '请输入 IP 地址' });
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', '2001:db8::1::2', 'abc', 'fe80::1%eth0']) {
      expect(convertIp(bad)).toEqual({ ok: false, error: '请输入正确的 IP 地址（IPv4 或 IPv6）' });
    }
  });
});

describe('/ipv4andlong', () => {
  it('converts both ways (hand-checked)', () => {
    expect(ipv4ToLong('192.168.1.1')).toEqual({ ok: true, value: '3232235777' });
    expect(ipv4ToLong('0.0.0.0')).toEqual({ ok: true, value: '0' });
    expect(ipv4ToLong('255.255.255.255')).toEqual({ ok: true, value: '4294967295' });
    expect(longToIpv4('3232235777')).toEqual({ ok: true, value: '192.168.1.1' });
    expect(longToIpv4('134744072')).toEqual({ ok: true, value: '8.8.8.8' });
  });

  it('refuses what is not an IPv4 address or a 32-bit number, in Chinese', () => {
    expect(ipv4ToLong('2001:db8::1')).toEqual({ ok: false, error: MSG.badIpv4 });
    expect(longToIpv4('4294967296')).toEqual({ ok: false, error: '请输入 0 到 4294967295 之间的整数' });
    expect(longToIpv4('-1')).toEqual({ ok: false, error: MSG.badLong });
    expect(longToIpv4('1.5')).toEqual({ ok: false, error: MSG.badLong });
  });
});

describe('/ipv4calculator', () => {
  it('computes a /24 (hand-checked)', () => {
    expect(calculateIpv4Subnet('192.168.1.130', '255.255.255.0')).toEqual({
      ok: true,
      value: {
        ip: '192.168.1.130',
        prefix: 24,
        cidr: '192.168.1.0/24',
        mask: '255.255.255.0',
        wildcard: '0.0.0.255',
        network: '192.168.1.0',
        broadcast: '192.168.1.255',
        firstHost: '192.168.1.1',
        lastHost: '192.168.1.254',
        addresses: '256',
        usableHosts: '254',
        ipClass: 'C',
        isPrivate: true,
        binaryIp: '11000000.10101000.00000001.10000010',
        binaryMask: '11111111.11111111.11111111.00000000',
      },
    });
  });

  it('reads ip/prefix in one field, /n and n, and handles /31, /32 and /0', () => {
    expect(calculateIpv4Subnet('10.1.2.3/20')).toMatchObject({
      value: { network: '10.1.0.0', broadcast: '10.1.15.255', usableHosts: '4094' },
    });
    expect(calculateIpv4Subnet('10.1.2.3', '/20')).toMatchObject({ value: { cidr: '10.1.0.0/20' } });
    expect(calculateIpv4Subnet('10.0.0.1', '31')).toMatchObject({
      value: { firstHost: '10.0.0.0', lastHost: '10.0.0.1', usableHosts: '2' },
    });
    expect(calculateIpv4Subnet('8.8.8.8', '32')).toMatchObject({
      value: { firstHost: '8.8.8.8', usableHosts: '1', ipClass: 'A', isPrivate: false },
    });
    expect(calculateIpv4Subnet('8.8.8.8', '0')).toMatchObject({ value: { network: '0.0.0.0', addresses: '4294967296' } });
  });

  it('agrees with ip-num on network and broadcast', () => {
    for (const cidr of ['172.16.5.4/12', '100.64.1.1/10', '203.0.113.77/27']) {
      const range = IPv4CidrRange.fromCidr(cidr);
      expect(calculateIpv4Subnet(cidr)).toMatchObject({
        value: {
          network: range.getFirst().toString(),
          broadcast: range.getLast().toString(),
          addresses: range.getSize().toString(),
        },
      });
    }
  });

  it('refuses bad masks and prefixes in Chinese', () => {
    expect(calculateIpv4Subnet('10.0.0.1', '255.0.255.0')).toEqual({ ok: false, error: MSG.badMask });
    expect(calculateIpv4Subnet('10.0.0.1', '33')).toEqual({ ok: false, error: 'IPv4 前缀长度须为 0 到 32 之间的整数' });
    expect(calculateIpv4Subnet('10.0.0.1', '')).toEqual({ ok: false, error: MSG.emptyMask });
    expect(calculateIpv4Subnet('10.0.0.300', '24')).toEqual({ ok: false, error: MSG.badIpv4 });
  });
});

describe('/maskconverter', () => {
  it('converts IPv4 masks and prefixes both ways (hand-checked)', () => {
    expect(convertMask('255.255.255.0')).toEqual({
      ok: true,
      value: {
        family: 4,
        prefix: 24,
        mask: '255.255.255.0',
        wildcard: '0.0.0.255',
        binary: '11111111.11111111.11111111.00000000',
        addresses: '256',
      },
    });
    expect(convertMask('/20')).toMatchObject({ value: { mask: '255.255.240.0', addresses: '4096' } });
    expect(convertMask('0')).toMatchObject({ value: { mask: '0.0.0.0' } });
    expect(convertMask('32')).toMatchObject({ value: { mask: '255.255.255.255', addresses: '1' } });
  });

  it('converts IPv6 masks and prefixes both ways (hand-checked)', () => {
    expect(convertMask('64', 6)).toMatchObject({
      value: { family: 6, mask: 'ffff:ffff:ffff:ffff::', addresses: String(2n ** 64n) },
    });
    expect(convertMask('ffff:ffff:ffff:ff00::')).toMatchObject({ value: { family: 6, prefix: 56 } });
    expect(convertMask('/128', 6)).toMatchObject({ value: { mask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' } });
  });

  it('refuses non-contiguous masks and out-of-range prefixes in Chinese', () => {
    expect(convertMask('255.255.0.255')).toEqual({ ok: false, error: MSG.badMask });
    expect(convertMask('ffff::ffff')).toEqual({ ok: false, error: MSG.badMask });
    expect(convertMask('33')).toEqual({ ok: false, error: MSG.badPrefix4 });
    expect(convertMask('129', 6)).toEqual({ ok: false, error: 'IPv6 前缀长度须为 0 到 128 之间的整数' });
    expect(convertMask('')).toEqual({ ok: false, error: MSG.emptyMask });
  });
});

describe('/netmaskinverse', () => {
  it('inverts masks and wildcards (hand-checked)', () => {
    expect(netmaskToWildcard('255.255.255.0')).toEqual({
      ok: true,
      value: { netmask: '255.255.255.0', wildcard: '0.0.0.255', prefix: 24 },
    });
    expect(netmaskToWildcard('255.255.252.0')).toMatchObject({ value: { wildcard: '0.0.3.255', prefix: 22 } });
    expect(wildcardToNetmask('0.0.15.255')).toEqual({
      ok: true,
      value: { netmask: '255.255.240.0', wildcard: '0.0.15.255', prefix: 20 },
    });
  });

  it('refuses a non-contiguous mask or wildcard in Chinese', () => {
    expect(netmaskToWildcard('0.0.0.255')).toEqual({ ok: false, error: MSG.badMask });
    expect(wildcardToNetmask('255.255.255.0')).toEqual({
      ok: false,
      error: '反掩码无效：须为连续的 0 后接连续的 1（如 0.0.0.255）',
    });
    expect(netmaskToWildcard('')).toEqual({ ok: false, error: MSG.emptyIp });
  });
});

describe('/networkcalculator', () => {
  it('computes an IPv4 network and membership (hand-checked)', () => {
    expect(calculateNetwork('10.1.2.3/8', '10.255.0.1')).toEqual({
      ok: true,
      value: {
        family: 4,
        cidr: '10.0.0.0/8',
        prefix: 8,
        first: '10.0.0.0',
        last: '10.255.255.255',
        size: '16777216',
        mask: '255.0.0.0',
        contains: true,
      },
    });
    expect(calculateNetwork('10.0.0.0/8', '11.0.0.1')).toMatchObject({ value: { contains: false } });
    expect(calculateNetwork('10.0.0.0/8', '::1')).toMatchObject({ value: { contains: false } });
    expect(calculateNetwork('10.0.0.0/8')).toMatchObject({ value: { contains: null } });
  });

  it('computes an IPv6 network and membership (hand-checked)', () => {
    expect(calculateNetwork('2001:db8:abcd:12::1/48', '2001:db8:abcd:ffff::1')).toEqual({
      ok: true,
      value: {
        family: 6,
        cidr: '2001:db8:abcd::/48',
        prefix: 48,
        first: '2001:db8:abcd::',
        last: '2001:db8:abcd:ffff:ffff:ffff:ffff:ffff',
        size: String(2n ** 80n),
        mask: 'ffff:ffff:ffff::',
        contains: true,
      },
    });
  });

  it('agrees with ip-num on ranges', () => {
    for (const cidr of ['192.0.2.0/24', '198.51.100.0/23']) {
      const range = IPv4CidrRange.fromCidr(cidr);
      expect(calculateNetwork(cidr)).toMatchObject({
        value: { first: range.getFirst().toString(), size: range.getSize().toString() },
      });
    }
    const v6 = IPv6CidrRange.fromCidr('2400:cb00::/32');
    expect(calculateNetwork('2400:cb00::/32')).toMatchObject({ value: { size: v6.getSize().toString() } });
  });

  it('refuses what is not a CIDR network in Chinese', () => {
    for (const bad of ['10.0.0.0', '10.0.0.0/', 'abc/8', '10.0.0.0/8/8']) {
      expect(calculateNetwork(bad).ok, bad).toBe(false);
    }
    expect(calculateNetwork('10.0.0.0')).toEqual({
      ok: false,
      error: '请输入 CIDR 格式的网段（如 192.168.1.0/24 或 2001:db8::/32）',
    });
    expect(calculateNetwork('10.0.0.0/33')).toEqual({ ok: false, error: MSG.badPrefix4 });
    expect(calculateNetwork('::/129')).toEqual({ ok: false, error: MSG.badPrefix6 });
    expect(calculateNetwork('10.0.0.0/8', 'nope')).toEqual({ ok: false, error: MSG.badIp });
  });
});
