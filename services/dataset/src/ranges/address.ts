import { formatIpv4, formatIpv6 } from '@ipdata/common/ip';

/**
 * Addresses as big-endian 32-bit words in a Uint32Array: one word for IPv4, four for IPv6.
 * Helpers work on (array, offset) pairs so nothing is allocated per address. Parsing, text
 * forms and CIDR blocks are the project's one IP module, '@ipdata/common/ip'.
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

export function formatAddress(words: Uint32Array, at: number, wordsPerAddress: WordsPerAddress): string {
  return wordsPerAddress === 1 ? formatIpv4(words[at] as number) : formatIpv6(words, at);
}
