import { bigIntToWords, wordsToBigInt } from '@ipdata/common/ip';
import { NONE } from '@ipdata/dataset/format';
import { readAsnCsv, type Partition } from '@ipdata/dataset/sources';
import type { SourceAddress } from './source-address.js';

/** One ASN CSV answer: the row's AS number and organisation, and the range it holds. */
export interface AsnSourceEntry {
  asn: number;
  organization: string;
  first: Uint32Array;
  last: Uint32Array;
}

/**
 * The ASN CSVs parsed once into the dataset build's partition (overlapping rows resolved as the
 * build resolves them: the more specific row wins), searched by binary search. Each row keeps
 * its own value id, so neighbouring rows are never folded together and the range found is the
 * part of that row where the CSV gives this answer.
 */
export class AsnSourceTable {
  private readonly asns: number[] = [];
  private readonly organizations: string[] = [];
  private readonly v4: Partition;
  private readonly v6: Partition;

  constructor(ipv4File: string, ipv6File: string) {
    // Organisation texts repeat across many rows: keep one copy of each.
    const interned = new Map<string, string>();
    const valueOf = (asn: number, organization: string): number => {
      let text = interned.get(organization);
      if (text === undefined) {
        text = organization;
        interned.set(organization, organization);
      }
      this.asns.push(asn);
      this.organizations.push(text);
      return this.asns.length - 1;
    };
    this.v4 = readAsnCsv(ipv4File, 4, valueOf);
    this.v6 = readAsnCsv(ipv6File, 6, valueOf);
  }

  find(address: SourceAddress): AsnSourceEntry | null {
    const partition = address.family === 4 ? this.v4 : this.v6;
    const words = partition.words;
    const count = partition.values.length;
    // The last range whose start is <= the address (a partition covers the whole space).
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compare(partition.starts, mid * words, address.words, words) <= 0) lo = mid;
      else hi = mid - 1;
    }
    const value = partition.values[lo] as number;
    if (value === NONE) return null;
    const first = partition.starts.slice(lo * words, lo * words + words);
    const last = new Uint32Array(words);
    if (words === 1) last[0] = lo + 1 < count ? (partition.starts[lo + 1] as number) - 1 : 0xffffffff;
    else {
      const next = lo + 1 < count ? wordsToBigInt(partition.starts, (lo + 1) * 4) : 1n << 128n;
      bigIntToWords(next - 1n, last);
    }
    return { asn: this.asns[value] as number, organization: this.organizations[value] as string, first, last };
  }
}

function compare(starts: Uint32Array, at: number, words: Uint32Array, count: number): number {
  for (let w = 0; w < count; w++) {
    const a = starts[at + w] as number;
    const b = words[w] as number;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}
