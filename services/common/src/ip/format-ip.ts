/**
 * Address text as the project writes it everywhere (dataset files, lookup answers, rate-limit
 * keys): dotted-quad IPv4 and RFC 5952 IPv6.
 */

/** Dotted-quad text of an unsigned 32-bit IPv4 value. */
export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/**
 * formatIpv4 (with "/prefixLength" when given, >= 0) written as ASCII into `target` at `at`, no
 * string made: for serialisers that build bytes (at most 18 bytes; the caller makes room).
 * Returns where the text ends.
 */
export function writeIpv4Ascii(target: Uint8Array, at: number, value: number, prefixLength = -1): number {
  for (let shift = 24; shift >= 0; shift -= 8) {
    at = writeDecimal(target, at, (value >>> shift) & 255);
    if (shift > 0) target[at++] = 46;
  }
  if (prefixLength >= 0) {
    target[at++] = 47;
    at = writeDecimal(target, at, prefixLength);
  }
  return at;
}

function writeDecimal(target: Uint8Array, at: number, value: number): number {
  if (value >= 100) target[at++] = 48 + Math.floor(value / 100);
  if (value >= 10) target[at++] = 48 + (Math.floor(value / 10) % 10);
  target[at++] = 48 + (value % 10);
  return at;
}

/** RFC 5952 text: lower case, the longest run (≥ 2) of zero groups compressed, the first on a tie. */
export function formatIpv6(words: ArrayLike<number>, at = 0): string {
  const groups: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = words[at + w] as number;
    groups.push(word >>> 16, word & 0xffff);
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}
