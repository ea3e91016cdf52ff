import { callUnary } from '@ipdata/common';
import type { BatchLookupStream, CompactBatch, TunedLookupServiceClient } from '@ipdata/lookup-engine/client';
import type { BatchLookupItem, LookupAsnResponse } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupEngine } from '../../lookups/lookup.ports.js';

/**
 * LookupEngine over the tuned client (@ipdata/lookup-engine/client); failures arrive as
 * DomainErrors. With a `stream`, batchLookup (the coalesced single lookups) goes on it; batches
 * and bulk chunks stay unary calls of their own, so a 1,000-address batch never holds up the
 * single lookups queued behind it on one stream.
 */
export class GrpcLookupEngine implements LookupEngine {
  constructor(
    private readonly client: TunedLookupServiceClient,
    private readonly stream?: BatchLookupStream,
    private readonly deadlineMs = 5_000,
  ) {}

  async batchLookup(ips: string[]): Promise<BatchLookupItem[]> {
    if (this.stream !== undefined) return (await this.stream.batchLookup(ips)).items;
    const response = await callUnary(this.client.batchLookup.bind(this.client), { ips }, undefined, this.options());
    return response.items;
  }

  batchLookupParts(ips: string[]): Promise<CompactBatch> {
    return callUnary(this.client.batchLookupParts.bind(this.client), { ips }, undefined, this.options());
  }

  lookupAsn(asn: number, page: number, pageSize: number): Promise<LookupAsnResponse> {
    return callUnary(this.client.lookupAsn.bind(this.client), { asn, page, pageSize }, undefined, this.options());
  }

  private options(): { deadline: number } {
    return { deadline: Date.now() + this.deadlineMs };
  }
}
