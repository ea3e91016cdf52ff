import { InvalidArgumentError, NotFoundError } from '@ipdata/common';
import { openDataset, type AsnEntry, type DatasetView } from '@ipdata/dataset/format';
import { SearchAsnsRequest } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { ASN_ROWS, asnDataset, asnEntry } from '../../test/fixtures/asn-dataset.js';
import { asnIndexOf } from './asn-index.js';
import { asnRelations, searchAsns } from './asn-queries.js';

const ASNS = ASN_ROWS;
const asnView = (asns: readonly AsnEntry[]): DatasetView => openDataset(asnDataset('asn-test', asns));
const asn = asnEntry;
const view = asnView(ASNS);
const search = (request: Partial<SearchAsnsRequest>) => searchAsns(view, SearchAsnsRequest.fromPartial(request));
const numbers = (request: Partial<SearchAsnsRequest>) => search(request).asns.map((entry) => entry.asn);

describe('searchAsns', () => {
  it('finds an ASN by number, with or without AS in any case, first and then words by number', () => {
    expect(numbers({ query: '4134' })).toEqual([4134]);
    expect(numbers({ query: 'as4134' })).toEqual([4134]);
    // The exact match first, then the name that contains the text.
    expect(numbers({ query: 'AS13335' })).toEqual([13335, 64500]);
    expect(search({ query: 'AS13335' }).total).toBe(2);
  });

  it('answers the row without its prefixes, null texts as absent', () => {
    expect(search({ query: '4134' }).asns[0]).toEqual({
      asn: 4134,
      name: 'CHINANET-BACKBONE',
      organization: 'China Telecom',
      countryCode: 'CN',
      usageType: 'ISP',
      ipv4PrefixCount: 3,
      ipv6PrefixCount: 1,
    });
    expect(search({ query: '64501' }).asns[0]).toEqual({ asn: 64501, ipv4PrefixCount: 0, ipv6PrefixCount: 0 });
  });

  it('needs every word in the name or the organisation, case-insensitively', () => {
    expect(numbers({ query: 'china telecom' })).toEqual([4134, 4809, 23724]);
    expect(numbers({ query: 'TELECOM  chinanet' })).toEqual([4134, 23724]);
    expect(numbers({ query: 'backbone unicom' })).toEqual([4837]);
    expect(numbers({ query: 'telecom unicom' })).toEqual([]);
    expect(numbers({ query: 'cloudflare' })).toEqual([13335]);
  });

  it('lists everything for an empty query and filters by country in any case', () => {
    expect(search({}).total).toBe(ASNS.length);
    expect(numbers({ countryCode: 'cn' })).toEqual([4134, 4809, 4837, 23724]);
    expect(numbers({ query: 'telecom', countryCode: 'CN' })).toEqual([4134, 4809, 23724]);
    expect(numbers({ query: '13335', countryCode: 'CN' })).toEqual([]);
    expect(numbers({ query: 'telecom', countryCode: 'US' })).toEqual([]);
  });

  it('pages 0-based with a total, 20 by default, at most 100', () => {
    expect(search({ query: 'china', pageSize: 2 })).toMatchObject({ total: 4, page: 0, pageSize: 2 });
    expect(numbers({ query: 'china', pageSize: 2, page: 1 })).toEqual([4837, 23724]);
    expect(numbers({ query: 'china', pageSize: 2, page: 2 })).toEqual([]);
    expect(search({}).pageSize).toBe(20);
    const many = asnView(Array.from({ length: 150 }, (_, i) => asn(1000 + i, `NET-${i}`, 'Big Org', 'US')));
    expect(searchAsns(many, SearchAsnsRequest.fromPartial({})).asns).toHaveLength(20);
    expect(searchAsns(many, SearchAsnsRequest.fromPartial({ pageSize: 100 })).asns).toHaveLength(100);
    expect(() => searchAsns(many, SearchAsnsRequest.fromPartial({ pageSize: 101 }))).toThrow(InvalidArgumentError);
  });

  it('treats a number beyond 32 bits as words, not as an ASN', () => {
    expect(numbers({ query: '99999999999' })).toEqual([]);
  });
});

describe('asnRelations', () => {
  it('answers the ASN, a page of its prefixes (IPv4 first) and the same organisation in any case', () => {
    const answer = asnRelations(view, { asn: 4134, page: 0, pageSize: 0 });
    expect(answer.asn).toMatchObject({ asn: 4134, organization: 'China Telecom', ipv4PrefixCount: 3, ipv6PrefixCount: 1 });
    expect(answer.prefixes).toEqual(['10.38.0.0/24', '10.38.1.0/24', '10.38.2.0/24', '240e::/20']);
    expect(answer).toMatchObject({ page: 0, pageSize: 100, totalPrefixes: 4, siblingsTotal: 2 });
    expect(answer.siblings.map((entry) => entry.asn)).toEqual([4809, 23724]);
    expect(asnRelations(view, { asn: 4134, page: 1, pageSize: 3 }).prefixes).toEqual(['240e::/20']);
  });

  it('has no siblings without an organisation or when alone in it', () => {
    expect(asnRelations(view, { asn: 64501, page: 0, pageSize: 0 })).toMatchObject({ siblings: [], siblingsTotal: 0 });
    expect(asnRelations(view, { asn: 13335, page: 0, pageSize: 0 })).toMatchObject({ siblings: [], siblingsTotal: 0 });
  });

  it('lists at most 1,000 siblings with their total', () => {
    const big = asnView(Array.from({ length: 1_200 }, (_, i) => asn(1000 + i, `NET-${i}`, i % 2 ? 'Big Org' : 'BIG ORG', 'US')));
    const answer = asnRelations(big, { asn: 1000, page: 0, pageSize: 0 });
    expect(answer.siblingsTotal).toBe(1_199);
    expect(answer.siblings).toHaveLength(1_000);
    expect(answer.siblings[0]?.asn).toBe(1001);
  });

  it('refuses an unknown ASN with NOT_FOUND and a page over 1,000', () => {
    expect(() => asnRelations(view, { asn: 1, page: 0, pageSize: 0 })).toThrow(NotFoundError);
    expect(() => asnRelations(view, { asn: 4134, page: 0, pageSize: 1_001 })).toThrow(InvalidArgumentError);
  });
});

describe('asnIndexOf', () => {
  it('builds once per dataset: the same view reuses it, another dataset gets its own', () => {
    expect(asnIndexOf(view)).toBe(asnIndexOf(view));
    const other = asnView([asn(7, 'SEVEN', 'China Telecom', 'CN')]);
    expect(asnIndexOf(other)).not.toBe(asnIndexOf(view));
    expect(searchAsns(other, SearchAsnsRequest.fromPartial({ query: 'telecom' })).asns.map((entry) => entry.asn)).toEqual([7]);
  });
});
