import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';

/**
 * Special-purpose address blocks (IANA IPv4/IPv6 Special-Purpose Address Registries, RFC 6890,
 * plus multicast). An address in one of them answers with its reason instead of a location.
 */
const IPV4_BLOCKS: ReadonlyArray<[string, number, ReservedReason]> = [
  ['0.0.0.0', 8, ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS],
  ['10.0.0.0', 8, ReservedReason.RESERVED_REASON_PRIVATE],
  ['100.64.0.0', 10, ReservedReason.RESERVED_REASON_SHARED_ADDRESS_SPACE],
  ['127.0.0.0', 8, ReservedReason.RESERVED_REASON_LOOPBACK],
  ['169.254.0.0', 16, ReservedReason.RESERVED_REASON_LINK_LOCAL],
  ['172.16.0.0', 12, ReservedReason.RESERVED_REASON_PRIVATE],
  ['192.0.0.0', 24, ReservedReason.RESERVED_REASON_OTHER],
  ['192.0.2.0', 24, ReservedReason.RESERVED_REASON_DOCUMENTATION],
  ['192.88.99.0', 24, ReservedReason.RESERVED_REASON_OTHER],
  ['192.168.0.0', 16, ReservedReason.RESERVED_REASON_PRIVATE],
  ['198.18.0.0', 15, ReservedReason.RESERVED_REASON_BENCHMARKING],
  ['198.51.100.0', 24, ReservedReason.RESERVED_REASON_DOCUMENTATION],
  ['203.0.113.0', 24, ReservedReason.RESERVED_REASON_DOCUMENTATION],
  ['224.0.0.0', 4, ReservedReason.RESERVED_REASON_MULTICAST],
  ['240.0.0.0', 4, ReservedReason.RESERVED_REASON_OTHER],
  ['255.255.255.255', 32, ReservedReason.RESERVED_REASON_BROADCAST],
];

/** IPv6 blocks as [first 32-bit word, mask bits within the first two words, ...]. */
const IPV6_BLOCKS: ReadonlyArray<[readonly [number, number, number, number], number, ReservedReason]> = [
  [[0, 0, 0, 0], 128, ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS],
  [[0, 0, 0, 1], 128, ReservedReason.RESERVED_REASON_LOOPBACK],
  [[0x0064ff9b, 0, 0, 0], 96, ReservedReason.RESERVED_REASON_OTHER],
  [[0x0064ff9b, 0x00010000, 0, 0], 48, ReservedReason.RESERVED_REASON_OTHER],
  [[0x01000000, 0, 0, 0], 64, ReservedReason.RESERVED_REASON_OTHER],
  [[0x20010000, 0, 0, 0], 23, ReservedReason.RESERVED_REASON_OTHER],
  [[0x20010db8, 0, 0, 0], 32, ReservedReason.RESERVED_REASON_DOCUMENTATION],
  [[0x3fff0000, 0, 0, 0], 20, ReservedReason.RESERVED_REASON_DOCUMENTATION],
  [[0xfc000000, 0, 0, 0], 7, ReservedReason.RESERVED_REASON_PRIVATE],
  [[0xfe800000, 0, 0, 0], 10, ReservedReason.RESERVED_REASON_LINK_LOCAL],
  [[0xff000000, 0, 0, 0], 8, ReservedReason.RESERVED_REASON_MULTICAST],
];

function ipv4Value(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

const v4Blocks = IPV4_BLOCKS.map(([address, length, reason]) => {
  const first = ipv4Value(address);
  return { first, last: first + 2 ** (32 - length) - 1, reason };
});

// First octets that can hold a special block: the common case skips the list entirely.
const v4MaybeReserved = new Uint8Array(256);
for (const block of v4Blocks) {
  for (let octet = block.first >>> 24; octet <= block.last >>> 24; octet++) v4MaybeReserved[octet] = 1;
}

export function reservedIpv4(ip: number): ReservedReason {
  if (v4MaybeReserved[ip >>> 24] === 0) return ReservedReason.RESERVED_REASON_UNSPECIFIED;
  for (const block of v4Blocks) if (ip >= block.first && ip <= block.last) return block.reason;
  return ReservedReason.RESERVED_REASON_UNSPECIFIED;
}

function inBlock(address: Uint32Array, first: readonly number[], length: number): boolean {
  let remaining = length;
  for (let w = 0; w < 4 && remaining > 0; w++) {
    const bits = Math.min(32, remaining);
    const mask = bits === 32 ? 0xffffffff : ~(0xffffffff >>> bits) >>> 0;
    if (((address[w] as number) & mask) >>> 0 !== ((first[w] as number) & mask) >>> 0) return false;
    remaining -= bits;
  }
  return true;
}

/** Reason for a (non-mapped) IPv6 address; UNSPECIFIED when it is an ordinary address. */
export function reservedIpv6(address: Uint32Array): ReservedReason {
  const top = address[0] as number;
  // Global unicast 2000::/3 except 2001::/23, 2001:db8::/32 and 3fff::/20 is the common case.
  if (top >>> 29 === 1 && top >>> 16 !== 0x2001 && top >>> 20 !== 0x3ff) return ReservedReason.RESERVED_REASON_UNSPECIFIED;
  for (const [first, length, reason] of IPV6_BLOCKS) if (inBlock(address, first, length)) return reason;
  return ReservedReason.RESERVED_REASON_UNSPECIFIED;
}
