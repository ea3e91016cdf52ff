import { callUnary } from '@ipdata/common';
import type { LookupServiceClient, SearchAsnsRequest } from '@ipdata/proto/lookup/v1/lookup';
import type { AsnDirectory } from '../../asn/asn.ports.js';

/**
 * The lookup engine's ASN RPCs on the same channel as the lookups (the tuned client is a
 * LookupServiceClient); statuses arrive as DomainErrors (NOT_FOUND → NotFoundError).
 */
export class GrpcAsnDirectory implements AsnDirectory {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  lookupAsn(asn: number, page: number, pageSize: number) {
    return callUnary(this.client.lookupAsn.bind(this.client), { asn, page, pageSize }, undefined, this.options());
  }

  searchAsns(request: SearchAsnsRequest) {
    return callUnary(this.client.searchAsns.bind(this.client), request, undefined, this.options());
  }

  asnRelations(asn: number, page: number, pageSize: number) {
    return callUnary(this.client.getAsnRelations.bind(this.client), { asn, page, pageSize }, undefined, this.options());
  }
}
