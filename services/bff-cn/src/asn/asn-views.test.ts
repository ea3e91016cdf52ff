import { describe, expect, it } from 'vitest';
import { asnListView, asnRelationView, asnSummaryView, parseAsn } from './asn-views.js';

describe('parseAsn', () => {
  it('reads AS13335 in any case and the bare number; refuses 0, 2^32 and anything else', () => {
    expect(parseAsn('AS13335')).toBe(13335);
    expect(parseAsn('as13335')).toBe(13335);
    expect(parseAsn(' 13335 ')).toBe(13335);
    expect(parseAsn('4294967295')).toBe(4294967295);
    for (const bad of ['0', 'AS0', '4294967296', 'AS', 'AS 1', '1.5', '-1', 'ASN13335', ''])
      expect(parseAsn(bad), bad).toBeUndefined();
  });
});

describe('ASN views', () => {
  const summary = {
    asn: 4134,
    name: 'Chinanet',
    organization: 'Chinanet',
    countryCode: 'cn',
    ipv4PrefixCount: 3,
    ipv6PrefixCount: 1,
  };

  it('names the country in Chinese and leaves what the dataset lacks null', () => {
    expect(asnSummaryView(summary)).toEqual({
      asn: 4134,
      asn_text: 'AS4134',
      name: 'Chinanet',
      organization: 'Chinanet',
      country_code: 'CN',
      country_name: '中国',
      usage_type: null,
      ipv4_prefix_count: 3,
      ipv6_prefix_count: 1,
    });
    expect(asnSummaryView({ asn: 7, ipv4PrefixCount: 0, ipv6PrefixCount: 0 })).toMatchObject({
      name: null,
      organization: null,
      country_code: null,
      country_name: null,
    });
    // A code ICU does not know keeps the code and has no name.
    expect(asnSummaryView({ ...summary, countryCode: 'QQ' })).toMatchObject({ country_code: 'QQ', country_name: null });
  });

  it('lists with face A paging and relates the organisation with its ASN count', () => {
    expect(asnListView({ asns: [summary], total: 41, page: 1, pageSize: 20 }, 2)).toMatchObject({
      total: 41,
      page: 2,
      page_size: 20,
      list: [{ asn: 4134 }],
    });
    const relation = asnRelationView(
      {
        asn: summary,
        prefixes: ['1.48.0.0/18'],
        page: 0,
        pageSize: 1,
        totalPrefixes: 9912,
        siblings: [{ ...summary, asn: 58461 }],
        siblingsTotal: 1,
      },
      1,
    );
    expect(relation).toMatchObject({
      asn: { asn: 4134 },
      organization: { name: 'Chinanet', asn_count: 2 },
      prefixes: ['1.48.0.0/18'],
      total_prefixes: 9912,
      page: 1,
      page_size: 1,
      siblings: [{ asn: 58461, asn_text: 'AS58461' }],
      siblings_total: 1,
    });
    const alone = asnRelationView(
      {
        asn: { asn: 7, ipv4PrefixCount: 0, ipv6PrefixCount: 0 },
        prefixes: [],
        page: 0,
        pageSize: 50,
        totalPrefixes: 0,
        siblings: [],
        siblingsTotal: 0,
      },
      1,
    );
    expect(alone.organization).toBeNull();
  });
});
