import { callUnary } from '@ipdata/common';
import type { BatchLookupItem, LookupAsnResponse, LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupEngine } from '../../lookups/lookup.ports.js';

/** LookupEngine over the tuned client (@ipdata/lookup-engine/client); failures arrive as DomainErrors. */
export class GrpcLookupEngine implements LookupEngine {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs = 5_000,
  ) {}

  async batchLookup(ips: string[]): Promise<BatchLookupItem[]> {
    const response = await callUnary(this.client.batchLookup.bind(this.client), { ips }, undefined, {
      deadline: Date.now() + this.deadlineMs,
    });
    return response.items;
  }

  lookupAsn(asn: number, page: number, pageSize: number): Promise<LookupAsnResponse> {
    return callUnary(this.client.lookupAsn.bind(this.client), { asn, page, pageSize }, undefined, {
      deadline: Date.now() + this.deadlineMs,
    });
  }
}
