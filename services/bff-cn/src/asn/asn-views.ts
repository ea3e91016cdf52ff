import type { AsnSummary, GetAsnRelationsResponse, LookupAsnResponse, SearchAsnsResponse } from '@ipdata/proto/lookup/v1/lookup';
import { countryName } from '../statistics/statistics-views.js';

/** "AS13335", "as13335" or "13335"; the number, or undefined when it is not a valid 32-bit ASN. */
export function parseAsn(text: string): number | undefined {
  const digits = /^(?:AS)?(\d{1,10})$/i.exec(text.trim())?.[1];
  if (digits === undefined) return undefined;
  const asn = Number(digits);
  return asn >= 1 && asn <= 0xffffffff ? asn : undefined;
}

export interface AsnSummaryView {
  asn: number;
  /** "AS13335", as the page shows it. */
  asn_text: string;
  name: string | null;
  organization: string | null;
  country_code: string | null;
  /** ICU's zh-CN name of the registration country; null when unknown. */
  country_name: string | null;
  usage_type: string | null;
  ipv4_prefix_count: number;
  ipv6_prefix_count: number;
}

export function asnSummaryView(summary: AsnSummary | LookupAsnResponse): AsnSummaryView {
  const code = summary.countryCode ? summary.countryCode.toUpperCase() : null;
  const name = code === null ? null : countryName(code);
  return {
    asn: summary.asn,
    asn_text: `AS${summary.asn}`,
    name: summary.name || null,
    organization: summary.organization || null,
    country_code: code,
    country_name: name === code ? null : name,
    usage_type: summary.usageType || null,
    ipv4_prefix_count: summary.ipv4PrefixCount,
    ipv6_prefix_count: summary.ipv6PrefixCount,
  };
}

/** asn_search: the ASN with one page of its prefixes (`page` 1-based as face A's pages are). */
export function asnDetailsView(answer: LookupAsnResponse, page: number) {
  return {
    ...asnSummaryView(answer),
    prefixes: answer.prefixes,
    total_prefixes: answer.totalPrefixes,
    page,
    page_size: answer.pageSize,
  };
}

/** asn_list_search: one page of matches. */
export function asnListView(answer: SearchAsnsResponse, page: number) {
  return { list: answer.asns.map(asnSummaryView), total: answer.total, page, page_size: answer.pageSize };
}

/** asn_relation_search: ASN ↔ organisation ↔ prefixes, and the organisation's other ASNs. */
export function asnRelationView(answer: GetAsnRelationsResponse, page: number) {
  const asn = asnSummaryView(answer.asn ?? { asn: 0, ipv4PrefixCount: 0, ipv6PrefixCount: 0 });
  return {
    asn,
    organization: asn.organization === null ? null : { name: asn.organization, asn_count: answer.siblingsTotal + 1 },
    prefixes: answer.prefixes,
    total_prefixes: answer.totalPrefixes,
    page,
    page_size: answer.pageSize,
    siblings: answer.siblings.map(asnSummaryView),
    siblings_total: answer.siblingsTotal,
  };
}
