import { NONE, type RangeTable } from '../format/index.js';

/** Limbs of an IPv6 sum: 2^128, then the four 32-bit words, most significant first. */
const LIMBS = 5;
const WORD = 2 ** 32;
/** A limb past this carries into the next, so every limb stays an exact integer in a double. */
const CARRY_AT = 2 ** 52;

/**
 * Addresses each record covers, summed over the ranges of the merged tables in one pass per
 * family, in typed arrays (no per-range objects). IPv4 sums are exact doubles (at most 2^32).
 * IPv6 sums are kept as five base-2^32 limbs per record, each an exact double, and turned into
 * a bigint on demand: /128 counts overflow doubles, and a bigint per range would cost seconds.
 */
export class RecordAddresses {
  readonly ipv4: Float64Array;
  private readonly ipv6Limbs: Float64Array;

  constructor(recordCount: number, ipv4: RangeTable, ipv6: RangeTable) {
    this.ipv4 = new Float64Array(recordCount);
    this.ipv6Limbs = new Float64Array(recordCount * LIMBS);

    const v4Ranges = ipv4.records.length;
    for (let i = 0; i < v4Ranges; i++) {
      const record = ipv4.records[i] as number;
      if (record === NONE) continue;
      const next = i + 1 < v4Ranges ? (ipv4.starts[i + 1] as number) : WORD;
      this.ipv4[record] = (this.ipv4[record] as number) + next - (ipv4.starts[i] as number);
    }

    const v6Ranges = ipv6.records.length;
    for (let i = 0; i < v6Ranges; i++) {
      const record = ipv6.records[i] as number;
      if (record === NONE) continue;
      const last = i + 1 === v6Ranges;
      // size = next start - start, word by word with borrow; the last range ends at 2^128.
      let borrow = 0;
      const base = record * LIMBS;
      for (let w = 3; w >= 0; w--) {
        const next = last ? 0 : (ipv6.starts[(i + 1) * 4 + w] as number);
        let word = next - (ipv6.starts[i * 4 + w] as number) - borrow;
        borrow = word < 0 ? 1 : 0;
        if (word < 0) word += WORD;
        this.add(base + 1 + w, word);
      }
      const top = (last ? 1 : 0) - borrow;
      if (top > 0) this.add(base, top);
    }
  }

  /** IPv6 addresses of `record` (exact: limbs above 2^32 are fine, each is weighted by its position). */
  ipv6(record: number): bigint {
    const base = record * LIMBS;
    let sum = 0n;
    for (let limb = 0; limb < LIMBS; limb++) sum = (sum << 32n) + BigInt(this.ipv6Limbs[base + limb] as number);
    return sum;
  }

  hasIpv6(record: number): boolean {
    const base = record * LIMBS;
    for (let limb = 0; limb < LIMBS; limb++) if ((this.ipv6Limbs[base + limb] as number) !== 0) return true;
    return false;
  }

  private add(at: number, value: number): void {
    const limbs = this.ipv6Limbs;
    const sum = (limbs[at] as number) + value;
    limbs[at] = sum;
    if (sum >= CARRY_AT) this.normalise(at - (at % LIMBS));
  }

  /** Moves every limb's overflow into the limb above, leaving each below 2^32 (the top limb keeps the rest). */
  private normalise(base: number): void {
    const limbs = this.ipv6Limbs;
    for (let limb = LIMBS - 1; limb > 0; limb--) {
      const value = limbs[base + limb] as number;
      if (value < WORD) continue;
      const carry = Math.floor(value / WORD);
      limbs[base + limb] = value - carry * WORD;
      limbs[base + limb - 1] = (limbs[base + limb - 1] as number) + carry;
    }
  }
}
