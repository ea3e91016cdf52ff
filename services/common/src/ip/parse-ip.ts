/**
 * Address parsing for the hot path: IPv4 straight to an unsigned 32-bit integer, IPv6 into a
 * caller-owned scratch Uint32Array of four big-endian words, without allocating (mmdb-lib
 * builds a number[] per call: the cost we avoid). The one parser of the project: the lookup
 * engine answers with it and the dataset build reads its sources with it, so both accept the
 * same text (no leading zeros in IPv4 octets, no zone ids).
 */

/** Parses dotted-quad IPv4 ("1.2.3.4", no leading zeros beyond "0"); -1 when malformed. */
export function parseIpv4(text: string, from = 0, to = text.length): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // "01" is ambiguous (octal in some parsers): refuse it like inet_pton does.
      if (digits === 1 && octet === 0) return -1;
      octet = octet * 10 + (c - 48);
      if (octet > 255) return -1;
      digits++;
    } else if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

const groups = new Uint16Array(8);

/**
 * Hex digit values by character code, NOT_HEX elsewhere. A table instead of range checks: digits
 * and letters alternate at random in real addresses, and the branches mispredicted on most
 * characters (IPv6 parsing ran at ~5 ns per character).
 */
const NOT_HEX = 16;
const HEX_VALUE = new Uint8Array(128).fill(NOT_HEX);
for (let d = 0; d < 10; d++) HEX_VALUE[48 + d] = d;
for (let d = 0; d < 6; d++) HEX_VALUE[97 + d] = HEX_VALUE[65 + d] = 10 + d;

/**
 * Parses IPv6 text (RFC 4291 forms: "::" compression, embedded dotted IPv4 in the last 32 bits)
 * into `out` as four big-endian 32-bit words. Zone ids ("%eth0") are refused. Returns false when
 * malformed. One pass over the characters into a reused group buffer.
 */
export function parseIpv6(text: string, out: Uint32Array): boolean {
  const length = text.length;
  if (length < 2 || length > 45) return false;
  let count = 0;
  // Index of the first group after "::", or -1.
  let gap = -1;
  let i = 0;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return false;
    gap = 0;
    i = 2;
  }
  while (i < length) {
    if (count === 8) return false;
    const groupStart = i;
    let value = 0;
    let c = text.charCodeAt(i);
    for (;;) {
      const h = c < 128 ? (HEX_VALUE[c] as number) : NOT_HEX;
      if (h === NOT_HEX) break;
      value = (value << 4) | h;
      if (++i === length) break;
      c = text.charCodeAt(i);
    }
    if (i - groupStart > 4) return false;
    if (i < length && c === 46) {
      // Embedded IPv4 takes the last two groups.
      if (count > 6) return false;
      const v4 = parseIpv4(text, groupStart, length);
      if (v4 < 0) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      break;
    }
    if (i === groupStart) return false;
    groups[count++] = value;
    if (i === length) break;
    if (c !== 58) return false;
    if (++i === length) return false;
    if (text.charCodeAt(i) === 58) {
      if (gap >= 0) return false;
      gap = count;
      if (++i === length) break;
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false;
  if (gap < 0) {
    out[0] = ((groups[0] as number) * 65536 + (groups[1] as number)) >>> 0;
    out[1] = ((groups[2] as number) * 65536 + (groups[3] as number)) >>> 0;
    out[2] = ((groups[4] as number) * 65536 + (groups[5] as number)) >>> 0;
    out[3] = ((groups[6] as number) * 65536 + (groups[7] as number)) >>> 0;
    return true;
  }
  // Move the groups after "::" to the end and zero the gap.
  const tail = count - gap;
  for (let k = 0; k < tail; k++) groups[7 - k] = groups[count - 1 - k] as number;
  for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  out[0] = ((groups[0] as number) * 65536 + (groups[1] as number)) >>> 0;
  out[1] = ((groups[2] as number) * 65536 + (groups[3] as number)) >>> 0;
  out[2] = ((groups[4] as number) * 65536 + (groups[5] as number)) >>> 0;
  out[3] = ((groups[6] as number) * 65536 + (groups[7] as number)) >>> 0;
  return true;
}

/** If the four words are an IPv4-mapped address (::ffff:a.b.c.d), its IPv4 value, else -1. */
export function mappedIpv4(words: Uint32Array): number {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff ? (words[3] as number) : -1;
}
