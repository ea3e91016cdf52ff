import { bigIntToWords, forEachIpv4Cidr, forEachIpv6Cidr, wordsToBigInt } from '@ipdata/common/ip';
import { NONE, type AsnEntry, type DatasetRecord, type RangeTable } from '../format/index.js';
import type { Partition } from '../ranges/partition.js';
import type { RecordTable } from './record-table.js';

/** Counts of values, answering "the most common one" deterministically (ties: smallest value). */
class Tally {
  private readonly counts = new Map<string, number>();

  add(value: string | null): void {
    if (value !== null) this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }

  mostCommon(): string | null {
    let best: string | null = null;
    let bestCount = 0;
    for (const [value, count] of this.counts) {
      if (count > bestCount || (count === bestCount && best !== null && value < best)) {
        best = value;
        bestCount = count;
      }
    }
    return best;
  }
}

const prefixWords = new Uint32Array(4);

/** The four big-endian 32-bit words of an IPv6 network, as AsnEntry holds them. */
function wordsOf(network: bigint): [number, number, number, number] {
  bigIntToWords(network, prefixWords);
  return [prefixWords[0] as number, prefixWords[1] as number, prefixWords[2] as number, prefixWords[3] as number];
}

interface AsnBuilder {
  names: Tally;
  countries: Tally;
  prefixesV4: Array<readonly [number, number]>;
  prefixesV6: Array<readonly [readonly [number, number, number, number], number]>;
}

/**
 * The ASN list behind LookupAsn: every ASN of the ASN CSVs with its organisation (the most
 * common one among its rows), its prefixes (the CSV ranges as CIDR blocks), the most common
 * GeoLite2 country among the merged ranges carrying it, and "DCH" when it is a hosting ASN.
 */
export function buildAsnEntries(
  asnV4: Partition,
  asnV6: Partition,
  merged: { ipv4: RangeTable; ipv6: RangeTable },
  recordTable: RecordTable,
  progress?: (fraction: number) => void,
): AsnEntry[] {
  const total = asnV4.values.length + asnV6.values.length;
  const builders = new Map<number, AsnBuilder>();
  const builder = (asn: number): AsnBuilder => {
    let entry = builders.get(asn);
    if (entry === undefined) {
      entry = { names: new Tally(), countries: new Tally(), prefixesV4: [], prefixesV6: [] };
      builders.set(asn, entry);
    }
    return entry;
  };

  for (let i = 0; i < asnV4.values.length; i++) {
    const value = asnV4.values[i] as number;
    if (value === NONE) continue;
    const { asn, organisation } = recordTable.asnOf(value);
    const entry = builder(asn);
    entry.names.add(organisation);
    const first = asnV4.starts[i] as number;
    const last = i + 1 < asnV4.values.length ? (asnV4.starts[i + 1] as number) - 1 : 0xffffffff;
    forEachIpv4Cidr(first, last, (network, prefixLength) => entry.prefixesV4.push([network, prefixLength]));
    if (progress && (i & 0xffff) === 0) progress((0.8 * i) / total);
  }
  const top = (1n << 128n) - 1n;
  for (let i = 0; i < asnV6.values.length; i++) {
    const value = asnV6.values[i] as number;
    if (value === NONE) continue;
    const { asn, organisation } = recordTable.asnOf(value);
    const entry = builder(asn);
    entry.names.add(organisation);
    const first = wordsToBigInt(asnV6.starts, i * 4);
    const last = i + 1 < asnV6.values.length ? wordsToBigInt(asnV6.starts, (i + 1) * 4) - 1n : top;
    forEachIpv6Cidr(first, last, (network, prefixLength) => entry.prefixesV6.push([wordsOf(network), prefixLength]));
    if (progress && (i & 0xffff) === 0) progress((0.8 * (asnV4.values.length + i)) / total);
  }

  const countCountries = (table: RangeTable, records: readonly DatasetRecord[]) => {
    for (const index of table.records) {
      if (index === NONE) continue;
      const record = records[index] as DatasetRecord;
      if (record.asn !== null) builders.get(record.asn)?.countries.add(record.fields.country_code ?? null);
    }
  };
  countCountries(merged.ipv4, recordTable.records);
  countCountries(merged.ipv6, recordTable.records);
  progress?.(1);

  return [...builders.entries()]
    .sort(([a], [b]) => a - b)
    .map(([asn, entry]) => {
      const name = entry.names.mostCommon();
      return {
        asn,
        name,
        organization: name,
        countryCode: entry.countries.mostCommon(),
        usageType: recordTable.isHosting(asn) ? 'DCH' : null,
        prefixesV4: entry.prefixesV4,
        prefixesV6: entry.prefixesV6,
      };
    });
}
