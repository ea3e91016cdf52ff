/**
 * Address parsing for the hot path: IPv4 straight to an unsigned 32-bit integer, IPv6 into a
 * caller-owned scratch Uint32Array of four big-endian words, without allocating (STYLE.md:
 * beat mmdb-lib's per-call number[]).
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

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * Parses IPv6 text (RFC 4291 forms: "::" compression, embedded dotted IPv4 in the last 32 bits)
 * into `out` as four big-endian 32-bit words. Zone ids ("%eth0") are refused. Returns false when
 * malformed.
 */
export function parseIpv6(text: string, out: Uint32Array): boolean {
  const length = text.length;
  if (length < 2 || length > 45) return false;
  // Up to 8 groups of 16 bits; `gap` is where "::" stands (-1 if absent).
  const groups = scratchGroups;
  let count = 0;
  let gap = -1;
  let i = 0;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return false;
    gap = 0;
    i = 2;
    if (i === length) {
      out[0] = out[1] = out[2] = out[3] = 0;
      return true;
    }
  }
  while (i < length) {
    if (count === 8) return false;
    let value = 0;
    let digits = 0;
    const groupStart = i;
    while (i < length) {
      const h = hexValue(text.charCodeAt(i));
      if (h < 0) break;
      value = value * 16 + h;
      digits++;
      i++;
      if (digits > 4) return false;
    }
    const c = i < length ? text.charCodeAt(i) : -1;
    if (c === 46) {
      // Embedded IPv4 takes the last two groups.
      if (count > 6) return false;
      const v4 = parseIpv4(text, groupStart, length);
      if (v4 < 0) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      break;
    }
    if (digits === 0) return false;
    groups[count++] = value;
    if (i === length) break;
    if (c !== 58) return false;
    i++;
    if (i < length && text.charCodeAt(i) === 58) {
      if (gap >= 0) return false;
      gap = count;
      i++;
      if (i === length) break;
    } else if (i === length) {
      return false;
    }
  }
  if (gap < 0 && count !== 8) return false;
  if (gap >= 0 && count > 7) return false;
  const zeros = 8 - count;
  let g = 0;
  for (let k = 0; k < 8; k++) {
    let v: number;
    if (gap >= 0 && k >= gap && k < gap + zeros) v = 0;
    else v = groups[g++] as number;
    if ((k & 1) === 0) out[k >> 1] = v << 16;
    else out[k >> 1] = ((out[k >> 1] as number) | v) >>> 0;
  }
  return true;
}

const scratchGroups = new Uint16Array(8);

/** If the four words are an IPv4-mapped address (::ffff:a.b.c.d), its IPv4 value, else -1. */
export function mappedIpv4(words: Uint32Array): number {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff ? (words[3] as number) : -1;
}

export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** RFC 5952 canonical text: lower case, longest run of zero groups (≥ 2) compressed. */
export function formatIpv6(words: ArrayLike<number>, offset = 0): string {
  const groups: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = words[offset + w] as number;
    groups.push(word >>> 16, word & 0xffff);
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let k = 0; k < 8;) {
    if (groups[k] !== 0) {
      k++;
      continue;
    }
    let end = k;
    while (end < 8 && groups[end] === 0) end++;
    if (end - k > bestLength) {
      bestStart = k;
      bestLength = end - k;
    }
    k = end;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
