import { callUnary } from '@ipdata/common';
import type { BatchLookupItem, LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import type { BatchLookupEngine } from '../../batch/batch.ports.js';

/**
 * BatchLookupEngine over the lookup engine's tuned client (@ipdata/lookup-engine/client: its
 * batchLookup travels as BatchLookupCompact); failures arrive as DomainErrors (UnavailableError
 * when the engine is down: the bulk engine retries the chunk).
 */
export class GrpcBatchLookupEngine implements BatchLookupEngine {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs: number,
  ) {}

  async batchLookup(ips: string[]): Promise<BatchLookupItem[]> {
    const response = await callUnary(this.client.batchLookup.bind(this.client), { ips }, undefined, {
      deadline: Date.now() + this.deadlineMs,
    });
    return response.items;
  }
}
