import { IPv4, IPv4CidrRange, IPv4Prefix } from 'ip-num';
import { MSG, dottedBinary, fail, isIpv4, ok, parseIpv4, parsePrefix, prefixOfMask, type ToolResult } from './ip-input.js';

export interface Ipv4Subnet {
  ip: string;
  prefix: number;
  cidr: string;
  mask: string;
  wildcard: string;
  network: string;
  broadcast: string;
  firstHost: string;
  lastHost: string;
  /** every address of the network */
  addresses: string;
  /** addresses a host can use: all minus network and broadcast; /31 has 2 (RFC 3021), /32 has 1 */
  usableHosts: string;
  ipClass: 'A' | 'B' | 'C' | 'D' | 'E';
  isPrivate: boolean;
  binaryIp: string;
  binaryMask: string;
}

/**
 * /ipv4calculator: an address and its mask (255.255.255.0, 24 or /24; or `ip/24` in the first
 * field and the second empty) → the network it belongs to.
 */
export function calculateIpv4Subnet(ipInput: string, maskInput = ''): ToolResult<Ipv4Subnet> {
  let ipText = ipInput.trim();
  let maskText = maskInput.trim();
  if (ipText.includes('/') && !maskText) [ipText, maskText] = ipText.split('/', 2) as [string, string];
  const ip = parseIpv4(ipText);
  if (!ip.ok) return ip;
  if (!maskText) return fail(MSG.emptyMask);
  let prefix: number;
  if (isIpv4(maskText)) {
    const fromMask = prefixOfMask(IPv4.fromDecimalDottedString(maskText).getValue(), 32);
    if (fromMask === null) return fail(MSG.badMask);
    prefix = fromMask;
  } else {
    const parsed = parsePrefix(maskText, 4);
    if (!parsed.ok) return parsed;
    prefix = parsed.value;
  }

  const range = new IPv4CidrRange(ip.value, IPv4Prefix.fromNumber(BigInt(prefix)));
  const first = range.getFirst();
  const last = range.getLast();
  const mask = IPv4Prefix.fromNumber(BigInt(prefix)).toMask();
  const size = range.getSize();
  const hostsBetween = prefix <= 30;
  return ok({
    ip: ip.value.toString(),
    prefix,
    cidr: `${first.toString()}/${prefix}`,
    mask: mask.toString(),
    wildcard: IPv4.fromNumber(mask.getValue() ^ 0xffffffffn).toString(),
    network: first.toString(),
    broadcast: last.toString(),
    firstHost: hostsBetween ? first.nextIPNumber().toString() : first.toString(),
    lastHost: hostsBetween ? last.previousIPNumber().toString() : last.toString(),
    addresses: size.toString(),
    usableHosts: (hostsBetween ? size - 2n : size).toString(),
    ipClass: classOf(ip.value),
    isPrivate: ip.value.isPrivate(),
    binaryIp: dottedBinary(ip.value),
    binaryMask: dottedBinary(mask),
  });
}

function classOf(ip: IPv4): Ipv4Subnet['ipClass'] {
  const first = Number(ip.getValue() >> 24n);
  if (first < 128) return 'A';
  if (first < 192) return 'B';
  if (first < 224) return 'C';
  if (first < 240) return 'D';
  return 'E';
}
