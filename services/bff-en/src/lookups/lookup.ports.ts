import type { CompactBatch } from '@ipdata/lookup-engine/client';
import type { BatchLookupItem, LookupAsnResponse } from '@ipdata/proto/lookup/v1/lookup';

/** Answer `at` of a compact batch: read from its columns and parts, or rendered from their cached JSON. */
export interface CompactAnswer {
  batch: CompactBatch;
  at: number;
}

/** What the public API needs from the lookup engine (adapters/grpc/lookup-engine.adapter.ts). */
export interface LookupEngine {
  /** The single lookups LookupBatcher coalesced: many small batches, as the engine sends them. */
  coalescedLookup(ips: string[]): Promise<CompactBatch>;
  /** Up to 1,000 addresses (bulk chunks, a domain's records), answers in order; each item has `info` or `error`. */
  batchLookup(ips: string[]): Promise<BatchLookupItem[]>;
  /** The same, as the engine sends it: shared parts once, one answer per address (POST /v1/batch). */
  batchLookupParts(ips: string[]): Promise<CompactBatch>;
  /** Rejects with NotFoundError for an unknown ASN. */
  lookupAsn(asn: number, page: number, pageSize: number): Promise<LookupAsnResponse>;
}
