import type {
  GetAsnRelationsResponse,
  LookupAsnResponse,
  SearchAsnsRequest,
  SearchAsnsResponse,
} from '@ipdata/proto/lookup/v1/lookup';

/** What face A asks the lookup engine about autonomous systems (adapters/grpc/asn.adapter.ts). */
export interface AsnDirectory {
  /** LookupAsn; rejects with NotFoundError for an unknown ASN, UnavailableError when the engine is down. */
  lookupAsn(asn: number, page: number, pageSize: number): Promise<LookupAsnResponse>;
  searchAsns(request: SearchAsnsRequest): Promise<SearchAsnsResponse>;
  /** GetAsnRelations; NotFoundError for an unknown ASN. */
  asnRelations(asn: number, page: number, pageSize: number): Promise<GetAsnRelationsResponse>;
}
