import { InvalidArgumentError, NotFoundError } from '@ipdata/common';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import type { CallContext } from '../face-a/face-a-call.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import type { UsageEmitter } from '../usage/usage-emitter.js';
import type { AsnDirectory } from './asn.ports.js';
import { asnDetailsView, asnListView, asnRelationView, parseAsn } from './asn-views.js';

export const BAD_ASN_MSG = '请输入正确的 ASN（如 AS13335 或 13335）';
export const UNKNOWN_ASN_MSG = '未找到该 ASN';

export interface FaceAAsnsDeps {
  directory: AsnDirectory;
  /** The visitor's lookup limit, shared with the address lookups. */
  lookups: Pick<FaceALookups, 'limit'>;
  usage: Pick<UsageEmitter, 'record'>;
}

export interface Paging {
  /** 1-based, as face A's pages count. */
  page: number;
  pageSize: number;
}

/**
 * Face A's ASN queries: each one counts against the visitor's lookup limit like an address lookup
 * and is recorded as one usage event without an address (ip empty, ip_version 0 as the
 * UsageEvent shape allows; country empty so that address trends are not mixed with ASN
 * registrations). Malformed input is refused before it is counted.
 */
export class FaceAAsns {
  constructor(private readonly deps: FaceAAsnsDeps) {}

  async details(context: CallContext, text: string, paging: Paging) {
    const asn = checkedAsn(text);
    await this.deps.lookups.limit(context);
    const answer = await this.found(context, 'asn_search', () =>
      this.deps.directory.lookupAsn(asn, paging.page - 1, paging.pageSize),
    );
    return asnDetailsView(answer, paging.page);
  }

  async list(context: CallContext, filter: { keyword: string; country: string }, paging: Paging) {
    await this.deps.lookups.limit(context);
    const answer = await this.deps.directory.searchAsns({
      query: filter.keyword,
      countryCode: filter.country,
      page: paging.page - 1,
      pageSize: paging.pageSize,
    });
    await this.record(context, 'asn_list_search', answer.total > 0);
    return asnListView(answer, paging.page);
  }

  async relations(context: CallContext, text: string, paging: Paging) {
    const asn = checkedAsn(text);
    await this.deps.lookups.limit(context);
    const answer = await this.found(context, 'asn_relation_search', () =>
      this.deps.directory.asnRelations(asn, paging.page - 1, paging.pageSize),
    );
    return asnRelationView(answer, paging.page);
  }

  /** Runs a query of one ASN: an unknown ASN is code 404 "未找到该 ASN", recorded as not found. */
  private async found<T>(context: CallContext, endpoint: string, query: () => Promise<T>): Promise<T> {
    try {
      const answer = await query();
      await this.record(context, endpoint, true);
      return answer;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      await this.record(context, endpoint, false);
      throw new NotFoundError(UNKNOWN_ASN_MSG);
    }
  }

  private record(context: CallContext, endpoint: string, found: boolean): Promise<void> {
    return this.deps.usage.record(context, {
      endpoint,
      ip: '',
      ipVersion: 0,
      countryCode: '',
      province: '',
      result: found ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_NOT_FOUND,
      count: 1,
      freeCount: 0,
    });
  }
}

function checkedAsn(text: string): number {
  const asn = parseAsn(text);
  if (asn === undefined) throw new InvalidArgumentError(BAD_ASN_MSG);
  return asn;
}
