import type { AsnSummary } from '@ipdata/proto/lookup/v1/lookup';
import { formatIpv4, formatIpv6 } from '@ipdata/common/ip';
import { ASN_PREFIX_V4_WORDS, ASN_PREFIX_V6_WORDS, ASN_ROW_WORDS, NONE, type DatasetView } from '@ipdata/dataset/format';

export interface AsnDetails {
  asn: number;
  name: string | null;
  organization: string | null;
  countryCode: string | null;
  usageType: string | null;
  ipv4PrefixCount: number;
  ipv6PrefixCount: number;
  totalPrefixes: number;
  /** The requested page of prefixes, IPv4 first, then IPv6. */
  prefixes: string[];
}

/** Finds an ASN row by binary search over the dataset's sorted ASN table. */
export function findAsn(view: DatasetView, asn: number, page: number, pageSize: number): AsnDetails | undefined {
  const row = asnRow(view, asn);
  return row < 0 ? undefined : asnDetailsAt(view, row * ASN_ROW_WORDS, page, pageSize);
}

/** The row number (not the word offset) of an ASN in the sorted ASN table, or -1. */
export function asnRow(view: DatasetView, asn: number): number {
  const table = view.asnTable;
  let lo = 0;
  let hi = table.length / ASN_ROW_WORDS - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = table[mid * ASN_ROW_WORDS] as number;
    if (value === asn) return mid;
    if (value < asn) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The details of the row starting at word `row`, with one page of its prefixes. */
export function asnDetailsAt(view: DatasetView, row: number, page: number, pageSize: number): AsnDetails {
  const t = view.asnTable;
  const text = (id: number) => (id === NONE ? null : (view.strings[id] ?? null));
  const v4Start = t[row + 5] as number;
  const v4Count = t[row + 6] as number;
  const v6Start = t[row + 7] as number;
  const v6Count = t[row + 8] as number;
  const total = v4Count + v6Count;
  const prefixes: string[] = [];
  for (let i = page * pageSize; i < Math.min(total, (page + 1) * pageSize); i++) {
    if (i < v4Count) {
      const at = (v4Start + i) * ASN_PREFIX_V4_WORDS;
      prefixes.push(`${formatIpv4(view.asnPrefixesV4[at] as number)}/${view.asnPrefixesV4[at + 1] as number}`);
    } else {
      const at = (v6Start + i - v4Count) * ASN_PREFIX_V6_WORDS;
      prefixes.push(`${formatIpv6(view.asnPrefixesV6, at)}/${view.asnPrefixesV6[at + 4] as number}`);
    }
  }
  return {
    asn: t[row] as number,
    name: text(t[row + 1] as number),
    organization: text(t[row + 2] as number),
    countryCode: text(t[row + 3] as number),
    usageType: text(t[row + 4] as number),
    ipv4PrefixCount: v4Count,
    ipv6PrefixCount: v6Count,
    totalPrefixes: total,
    prefixes,
  };
}

/** A row without its prefixes, as the ASN lists and LookupAsn answer it (absent texts left out). */
export function asnSummaryOf(details: AsnDetails): AsnSummary {
  return {
    asn: details.asn,
    name: details.name ?? undefined,
    organization: details.organization ?? undefined,
    countryCode: details.countryCode ?? undefined,
    usageType: details.usageType ?? undefined,
    ipv4PrefixCount: details.ipv4PrefixCount,
    ipv6PrefixCount: details.ipv6PrefixCount,
  };
}
