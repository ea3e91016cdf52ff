/**
 * Addresses as big-endian 32-bit words in a Uint32Array: one word for IPv4, four for IPv6.
 * Helpers work on (array, offset) pairs so nothing is allocated per address.
 */
export type WordsPerAddress = 1 | 4;

export function compareAt(a: Uint32Array, ai: number, b: Uint32Array, bi: number, words: number): number {
  for (let w = 0; w < words; w++) {
    const x = a[ai + w] as number;
    const y = b[bi + w] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Adds one in place; returns true when the address wrapped past the top of the space. */
export function incrementAt(a: Uint32Array, ai: number, words: number): boolean {
  for (let w = words - 1; w >= 0; w--) {
    const next = ((a[ai + w] as number) + 1) >>> 0;
    a[ai + w] = next;
    if (next !== 0) return false;
  }
  return true;
}

/** Subtracts one in place (the caller guarantees the address is not 0). */
export function decrementAt(a: Uint32Array, ai: number, words: number): void {
  for (let w = words - 1; w >= 0; w--) {
    const value = a[ai + w] as number;
    a[ai + w] = (value - 1) >>> 0;
    if (value !== 0) return;
  }
}

export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** Parses IPv6 text (with :: and an optional dotted IPv4 tail) into `out` at `at`; false if invalid. */
export function parseIpv6Into(text: string, out: Uint32Array, at: number): boolean {
  let head = text;
  const groups: number[] = [];
  const dotted = head.lastIndexOf('.') > 0 ? head.slice(head.lastIndexOf(':') + 1) : null;
  if (dotted !== null) {
    const v4 = parseIpv4(dotted);
    if (v4 === null) return false;
    head = `${head.slice(0, head.length - dotted.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return false;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const result: number[] = [];
    for (const group of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      result.push(parseInt(group, 16));
    }
    return result;
  };
  const left = parse(halves[0] as string);
  const right = halves.length === 2 ? parse(halves[1] as string) : [];
  if (left === null || right === null) return false;
  if (halves.length === 2) {
    if (left.length + right.length > 7) return false;
    groups.push(...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right);
  } else {
    if (left.length !== 8) return false;
    groups.push(...left);
  }
  for (let w = 0; w < 4; w++) out[at + w] = (((groups[w * 2] as number) << 16) | (groups[w * 2 + 1] as number)) >>> 0;
  return true;
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

export function formatAddress(words: Uint32Array, at: number, wordsPerAddress: WordsPerAddress): string {
  return wordsPerAddress === 1 ? formatIpv4(words[at] as number) : formatIpv6(words, at);
}

/** 128-bit value of the address at `at` (IPv6 CIDR arithmetic only). */
export function toBigInt(words: Uint32Array, at: number, wordsPerAddress: WordsPerAddress): bigint {
  let value = 0n;
  for (let w = 0; w < wordsPerAddress; w++) value = (value << 32n) | BigInt(words[at + w] as number);
  return value;
}

function wordsOf(value: bigint): [number, number, number, number] {
  return [
    Number((value >> 96n) & 0xffffffffn),
    Number((value >> 64n) & 0xffffffffn),
    Number((value >> 32n) & 0xffffffffn),
    Number(value & 0xffffffffn),
  ];
}

/**
 * The smallest list of CIDR blocks covering first..last (inclusive), as [address, prefix
 * length]; bits = 32 or 128. BigInt keeps IPv6 exact; the lists are short.
 */
export function rangeToCidrs(first: bigint, last: bigint, bits: number): Array<[bigint, number]> {
  const blocks: Array<[bigint, number]> = [];
  let start = first;
  while (start <= last) {
    let size = 0;
    // Largest aligned block starting at `start` that does not pass `last`.
    while (size < bits && (start & ((1n << BigInt(size + 1)) - 1n)) === 0n && start + (1n << BigInt(size + 1)) - 1n <= last)
      size++;
    blocks.push([start, bits - size]);
    start += 1n << BigInt(size);
  }
  return blocks;
}

export function cidrsV4(first: number, last: number): Array<readonly [number, number]> {
  // Plain doubles are exact up to 2^53, so IPv4 needs no BigInt.
  const blocks: Array<readonly [number, number]> = [];
  let start = first;
  while (start <= last) {
    let size = 0;
    while (size < 32 && start % 2 ** (size + 1) === 0 && start + 2 ** (size + 1) - 1 <= last) size++;
    blocks.push([start, 32 - size]);
    start += 2 ** size;
  }
  return blocks;
}

export function cidrsV6(first: bigint, last: bigint): Array<readonly [readonly [number, number, number, number], number]> {
  return rangeToCidrs(first, last, 128).map(([address, length]) => [wordsOf(address), length] as const);
}
