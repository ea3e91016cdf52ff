import type { LookupAsnResponse } from '@ipdata/proto/lookup/v1/lookup';
import type { FieldSet } from './field-set.js';

/**
 * The answer of `GET /v1/asn/{asn}`. `asn` is the integer (13335), as in the IP answer's
 * `asn.asn`, so clients join the two on one value; the route accepts `AS13335` and `13335`, and
 * a second text form in the answer would only be one more thing to keep equal.
 */
export interface AsnView {
  asn: number;
  name: string | null;
  organization: string | null;
  country_code: string | null;
  usage_type: string | null;
  ipv4_prefix_count: number;
  ipv6_prefix_count: number;
  /** This page of the announced prefixes (CIDR text). */
  prefixes: string[];
  /** 0-based page number, as the engine numbers pages (`page` query parameter). */
  page: number;
  page_size: number;
  total_prefixes: number;
}

export const ASN_FIELDS: FieldSet = [
  { name: 'asn' },
  { name: 'name' },
  { name: 'organization' },
  { name: 'country_code' },
  { name: 'usage_type' },
  { name: 'ipv4_prefix_count' },
  { name: 'ipv6_prefix_count' },
  { name: 'prefixes' },
  { name: 'page' },
  { name: 'page_size' },
  { name: 'total_prefixes' },
];

export function asnView(resp: LookupAsnResponse): AsnView {
  return {
    asn: resp.asn,
    name: resp.name ?? null,
    organization: resp.organization ?? null,
    country_code: resp.countryCode ?? null,
    usage_type: resp.usageType ?? null,
    ipv4_prefix_count: resp.ipv4PrefixCount,
    ipv6_prefix_count: resp.ipv6PrefixCount,
    prefixes: resp.prefixes,
    page: resp.page,
    page_size: resp.pageSize,
    total_prefixes: resp.totalPrefixes,
  };
}
