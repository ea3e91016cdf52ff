import type { BatchLookupItem, LookupAsnResponse } from '@ipdata/proto/lookup/v1/lookup';

/** What the public API needs from the lookup engine (adapters/grpc/lookup-engine.adapter.ts). */
export interface LookupEngine {
  /** Up to 1,000 addresses, answers in order; each item has `info` or `error`. */
  batchLookup(ips: string[]): Promise<BatchLookupItem[]>;
  /** Rejects with NotFoundError for an unknown ASN. */
  lookupAsn(asn: number, page: number, pageSize: number): Promise<LookupAsnResponse>;
}
