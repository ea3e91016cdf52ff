import { IPv4, IPv4CidrRange, IPv4Prefix, IPv6, IPv6CidrRange, IPv6Prefix } from 'ip-num';
import { MSG, compressIpv6, fail, isIpv4, isIpv6, ok, parseIp, parsePrefix, type ToolResult } from './ip-input.js';

export interface NetworkInfo {
  family: 4 | 6;
  /** the network in CIDR notation, host bits cleared */
  cidr: string;
  prefix: number;
  first: string;
  last: string;
  /** number of addresses (exact; IPv6 sizes exceed Number) */
  size: string;
  mask: string;
  /** whether the address given (if any) is inside the network */
  contains: boolean | null;
}

/** /networkcalculator: a CIDR network (IPv4 or IPv6) → its range and size; optionally whether an address is in it. */
export function calculateNetwork(cidrInput: string, ipInput = ''): ToolResult<NetworkInfo> {
  const [address = '', prefixText, ...rest] = cidrInput.trim().split('/');
  if (prefixText === undefined || rest.length > 0) return fail(MSG.badCidr);
  const v4 = isIpv4(address);
  if (!v4 && !isIpv6(address)) return fail(MSG.badCidr);
  const family = v4 ? 4 : 6;
  const prefix = parsePrefix(prefixText, family);
  if (!prefix.ok) return prefix;

  let contains: boolean | null = null;
  if (ipInput.trim()) {
    const ip = parseIp(ipInput);
    if (!ip.ok) return ip;
    contains = false;
    if (ip.value.family === family) {
      const range = v4 ? v4Range(address, prefix.value) : v6Range(address, prefix.value);
      contains = range.contains(ip.value.ip);
    }
  }
  if (v4) {
    const range = v4Range(address, prefix.value);
    return ok({
      family: 4,
      cidr: `${range.getFirst().toString()}/${prefix.value}`,
      prefix: prefix.value,
      first: range.getFirst().toString(),
      last: range.getLast().toString(),
      size: range.getSize().toString(),
      mask: IPv4Prefix.fromNumber(BigInt(prefix.value)).toMask().toString(),
      contains,
    });
  }
  const range = v6Range(address, prefix.value);
  return ok({
    family: 6,
    cidr: `${compressIpv6(range.getFirst())}/${prefix.value}`,
    prefix: prefix.value,
    first: compressIpv6(range.getFirst()),
    last: compressIpv6(range.getLast()),
    size: range.getSize().toString(),
    mask: compressIpv6(IPv6Prefix.fromNumber(BigInt(prefix.value)).toMask()),
    contains,
  });
}

function v4Range(address: string, prefix: number): IPv4CidrRange {
  return new IPv4CidrRange(IPv4.fromDecimalDottedString(address), IPv4Prefix.fromNumber(BigInt(prefix)));
}

function v6Range(address: string, prefix: number): IPv6CidrRange {
  return new IPv6CidrRange(IPv6.fromString(address), IPv6Prefix.fromNumber(BigInt(prefix)));
}
