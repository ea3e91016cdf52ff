import { IPv4, IPv6 } from 'ip-num';
import { MSG, compressIpv6, dottedBinary, expandIpv6, fail, hex, isIpv4, isIpv6, ok, type ToolResult } from './ip-input.js';

export interface IpForms {
  family: 4 | 6;
  /** IPv4 dotted decimal, or IPv6 compressed */
  address: string;
  /** IPv6 with every group in four digits (IPv4: the IPv4-mapped IPv6 address) */
  expanded: string;
  decimal: string;
  hex: string;
  binary: string;
}

const MAX_V4 = 2n ** 32n - 1n;
const MAX_V6 = 2n ** 128n - 1n;

/**
 * /ipconvert: one address in every notation. Input: IPv4 dotted, IPv6, a decimal integer or a
 * 0x hexadecimal number (up to 2^32-1 read as IPv4, larger as IPv6).
 */
export function convertIp(input: string): ToolResult<IpForms> {
  const text = input.trim();
  if (!text) return fail(MSG.emptyIp);
  if (isIpv4(text)) return ok(ipv4Forms(IPv4.fromDecimalDottedString(text)));
  if (isIpv6(text)) return ok(ipv6Forms(IPv6.fromString(text)));
  if (/^(\d{1,39}|0x[0-9a-f]{1,32})$/i.test(text)) {
    const value = BigInt(text);
    if (value <= MAX_V4) return ok(ipv4Forms(IPv4.fromNumber(value)));
    if (value <= MAX_V6) return ok(ipv6Forms(IPv6.fromBigInt(value)));
  }
  return fail(MSG.badIp);
}

function ipv4Forms(ip: IPv4): IpForms {
  return {
    family: 4,
    address: ip.toString(),
    expanded: `::ffff:${ip.toString()}`,
    decimal: ip.getValue().toString(),
    hex: hex(ip.getValue(), 8),
    binary: dottedBinary(ip),
  };
}

function ipv6Forms(ip: IPv6): IpForms {
  return {
    family: 6,
    address: compressIpv6(ip),
    expanded: expandIpv6(ip),
    decimal: ip.getValue().toString(),
    hex: hex(ip.getValue(), 32),
    binary: ip.toBinaryString().padStart(128, '0').match(/.{16}/g)!.join(':'),
  };
}
