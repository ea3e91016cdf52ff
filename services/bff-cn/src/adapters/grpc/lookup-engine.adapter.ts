import { callUnary, InternalError } from '@ipdata/common';
import type { IpInfo, LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import type { IpLookupEngine } from '../../lookups/lookup.ports.js';

/** IpLookupEngine over the tuned client of @ipdata/lookup-engine/client; failures arrive as DomainErrors. */
export class GrpcIpLookupEngine implements IpLookupEngine {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs: number,
  ) {}

  async lookup(ip: string): Promise<IpInfo> {
    const response = await callUnary(this.client.lookup.bind(this.client), { ip }, undefined, {
      deadline: Date.now() + this.deadlineMs,
    });
    if (response.info === undefined) throw new InternalError(`lookup engine answered ${ip} without info`);
    return response.info;
  }
}
