import {
  formatIpv4,
  formatIpv6,
  ipv4RangeToCidrs,
  ipv6RangeToCidrs,
  mappedIpv4,
  parseIpv4,
  parseIpv6,
  wordsToBigInt,
} from '@ipdata/common/ip';

/** An address as the source readers take it: its family and big-endian words (IPv4: one word). */
export interface SourceAddress {
  family: 4 | 6;
  words: Uint32Array;
}

/**
 * The address a source is asked about. IPv4-mapped IPv6 (::ffff:a.b.c.d) is asked as IPv4,
 * as the engine itself answers it from the IPv4 table. Malformed text gives null (the caller
 * has already refused it through the dataset's own parser).
 */
export function sourceAddress(text: string): SourceAddress | null {
  const v4 = parseIpv4(text);
  if (v4 >= 0) return { family: 4, words: Uint32Array.of(v4) };
  const words = new Uint32Array(4);
  if (!parseIpv6(text, words)) return null;
  const mapped = mappedIpv4(words);
  return mapped >= 0 ? { family: 4, words: Uint32Array.of(mapped) } : { family: 6, words };
}

/** "a.b.c.d/n" (or the IPv6 form) of the network of `prefixLength` bits holding the address. */
export function prefixNetwork(address: SourceAddress, prefixLength: number): string {
  if (address.family === 4) {
    const value = address.words[0] as number;
    const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
    return `${formatIpv4((value & mask) >>> 0)}/${prefixLength}`;
  }
  const network = new Uint32Array(4);
  for (let w = 0; w < 4; w++) {
    const bits = Math.min(32, Math.max(0, prefixLength - w * 32));
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    network[w] = ((address.words[w] as number) & mask) >>> 0;
  }
  return `${formatIpv6(network)}/${prefixLength}`;
}

/** A range as one CIDR block when it is one, else "first - last". */
export function rangeText(family: 4 | 6, first: Uint32Array, last: Uint32Array): string {
  if (family === 4) {
    const blocks = ipv4RangeToCidrs(first[0] as number, last[0] as number);
    return blocks.length === 1 ? (blocks[0] as string) : `${formatIpv4(first[0] as number)} - ${formatIpv4(last[0] as number)}`;
  }
  const blocks = ipv6RangeToCidrs(wordsToBigInt(first), wordsToBigInt(last));
  return blocks.length === 1 ? (blocks[0] as string) : `${formatIpv6(first)} - ${formatIpv6(last)}`;
}
