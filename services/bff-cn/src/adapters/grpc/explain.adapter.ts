import { callUnary } from '@ipdata/common';
import type { ExplainAddressResponse, LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import type { AddressExplainer } from '../../report/report.ports.js';

/**
 * The lookup engine's ExplainAddress on the lookup channel (the tuned client is a
 * LookupServiceClient too). Its first call opens the engine's source readers (a few seconds), so
 * it gets its own, longer deadline.
 */
export class GrpcAddressExplainer implements AddressExplainer {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs: number,
  ) {}

  explain(ip: string): Promise<ExplainAddressResponse> {
    return callUnary(this.client.explainAddress.bind(this.client), { ip }, undefined, { deadline: Date.now() + this.deadlineMs });
  }
}
