import { InvalidArgumentError, NotFoundError } from '@ipdata/common';
import { ASN_ROW_WORDS, type DatasetView } from '@ipdata/dataset/format';
import type {
  AsnSummary,
  GetAsnRelationsRequest,
  GetAsnRelationsResponse,
  SearchAsnsRequest,
  SearchAsnsResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { asnDetailsAt, asnRow, asnSummaryOf } from '../dataset/asn-directory.js';
import { asnIndexOf } from './asn-index.js';

const SEARCH_DEFAULT_PAGE_SIZE = 20;
const SEARCH_MAX_PAGE_SIZE = 100;
// Prefix paging as LookupAsn's.
const PREFIX_DEFAULT_PAGE_SIZE = 100;
const PREFIX_MAX_PAGE_SIZE = 1_000;
const MAX_SIBLINGS = 1_000;

const ASN_QUERY = /^(?:as)?(\d{1,10})$/i;

/**
 * SearchAsns: "13335" or "AS13335" puts that ASN first; then (and for any other query) the ASNs
 * whose name or organisation contains every word of the query, case-insensitively, by number.
 * An empty query lists every ASN. `countryCode` (any case) keeps only that country's ASNs.
 */
export function searchAsns(view: DatasetView, request: SearchAsnsRequest): SearchAsnsResponse {
  const pageSize = checkedPageSize(request.pageSize, SEARCH_DEFAULT_PAGE_SIZE, SEARCH_MAX_PAGE_SIZE);
  const index = asnIndexOf(view);
  const query = request.query.trim();
  const country = request.countryCode.trim().toUpperCase();
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');

  const number = ASN_QUERY.exec(query)?.[1];
  const exact = number === undefined || Number(number) > 0xffffffff ? -1 : asnRow(view, Number(number));
  const matches: number[] = [];
  if (exact >= 0 && (country === '' || index.countries[exact] === country)) matches.push(exact);
  // One pass over precomputed texts; only the requested page is turned into messages.
  for (let row = 0; row < index.rows; row++) {
    if (row === exact) continue;
    if (country !== '' && index.countries[row] !== country) continue;
    if (containsAll(index.searchText[row] as string, words)) matches.push(row);
  }
  const from = request.page * pageSize;
  return {
    asns: matches.slice(from, from + pageSize).map((row) => summaryAt(view, row)),
    total: matches.length,
    page: request.page,
    pageSize,
  };
}

/**
 * GetAsnRelations: the ASN, a page of its prefixes, and the other ASNs whose organisation is the
 * same text case-insensitively (at most 1,000, by number, with their total).
 */
export function asnRelations(view: DatasetView, request: GetAsnRelationsRequest): GetAsnRelationsResponse {
  const pageSize = checkedPageSize(request.pageSize, PREFIX_DEFAULT_PAGE_SIZE, PREFIX_MAX_PAGE_SIZE);
  const row = asnRow(view, request.asn);
  if (row < 0) throw new NotFoundError(`unknown ASN: AS${request.asn}`, { reason: 'asn_not_found' });
  const details = asnDetailsAt(view, row * ASN_ROW_WORDS, request.page, pageSize);
  const organisation = details.organization?.toLowerCase();
  const related = organisation === undefined ? [] : (asnIndexOf(view).byOrganisation.get(organisation) ?? []);
  const siblings = related.filter((other) => other !== row);
  return {
    asn: asnSummaryOf(details),
    prefixes: details.prefixes,
    page: request.page,
    pageSize,
    totalPrefixes: details.totalPrefixes,
    siblings: siblings.slice(0, MAX_SIBLINGS).map((other) => summaryAt(view, other)),
    siblingsTotal: siblings.length,
  };
}

function containsAll(text: string, words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) if (!text.includes(words[i] as string)) return false;
  return true;
}

function checkedPageSize(requested: number, fallback: number, max: number): number {
  const size = requested === 0 ? fallback : requested;
  if (size > max) throw new InvalidArgumentError(`page_size must be at most ${max}`, { reason: 'page_too_large' });
  return size;
}

function summaryAt(view: DatasetView, row: number): AsnSummary {
  // Page size 0: no prefixes are formatted for a list entry.
  return asnSummaryOf(asnDetailsAt(view, row * ASN_ROW_WORDS, 0, 0));
}
