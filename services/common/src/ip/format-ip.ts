/**
 * Address text as the project writes it everywhere (dataset files, lookup answers, rate-limit
 * keys): dotted-quad IPv4 and RFC 5952 IPv6.
 */

/** Dotted-quad text of an unsigned 32-bit IPv4 value. */
export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
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
