import { IPv4, IPv6 } from 'ip-num';
import {
  MSG,
  compressIpv6,
  dottedBinary,
  fail,
  ipv4PrefixMask,
  ipv6PrefixMask,
  isIpv4,
  isIpv6,
  ok,
  parsePrefix,
  prefixOfMask,
  type ToolResult,
} from './ip-input.js';

export interface MaskForms {
  family: 4 | 6;
  prefix: number;
  /** IPv4 dotted mask or IPv6 compressed mask */
  mask: string;
  /** IPv4 only: the inverse (wildcard) mask */
  wildcard: string | null;
  /** IPv4: dotted binary; IPv6: null (128 digits help nobody) */
  binary: string | null;
  /** Addresses in a network of this prefix */
  addresses: string;
}

/**
 * /maskconverter: a mask ↔ its prefix length. Input: an IPv4 mask (255.255.255.0), an IPv6 mask
 * (ffff:ffff::), or a prefix length (24, /24) read for the family given.
 */
export function convertMask(input: string, family: 4 | 6 = 4): ToolResult<MaskForms> {
  const text = input.trim();
  if (!text) return fail(MSG.emptyMask);
  if (isIpv4(text)) {
    const prefix = prefixOfMask(IPv4.fromDecimalDottedString(text).getValue(), 32);
    return prefix === null ? fail(MSG.badMask) : ok(ipv4MaskForms(prefix));
  }
  if (isIpv6(text)) {
    const prefix = prefixOfMask(IPv6.fromString(text).getValue(), 128);
    return prefix === null ? fail(MSG.badMask) : ok(ipv6MaskForms(prefix));
  }
  if (/^\/?\d+$/.test(text)) {
    const prefix = parsePrefix(text, family);
    if (!prefix.ok) return prefix;
    return ok(family === 4 ? ipv4MaskForms(prefix.value) : ipv6MaskForms(prefix.value));
  }
  return fail(family === 4 ? MSG.badMask : MSG.badPrefix6);
}

export function ipv4MaskForms(prefix: number): MaskForms {
  const mask = ipv4PrefixMask(prefix);
  const wildcard = IPv4.fromNumber(mask.getValue() ^ 0xffffffffn);
  return {
    family: 4,
    prefix,
    mask: mask.toString(),
    wildcard: wildcard.toString(),
    binary: dottedBinary(mask),
    addresses: (2n ** BigInt(32 - prefix)).toString(),
  };
}

function ipv6MaskForms(prefix: number): MaskForms {
  return {
    family: 6,
    prefix,
    mask: compressIpv6(ipv6PrefixMask(prefix)),
    wildcard: null,
    binary: null,
    addresses: (2n ** BigInt(128 - prefix)).toString(),
  };
}
