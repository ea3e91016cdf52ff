import { InternalError, type Clock, type Logger } from '@ipdata/common';
import type { CheckedAddress } from '@ipdata/lookup-engine/client';
import { ReservedReason, type ExplainAddressResponse } from '@ipdata/proto/lookup/v1/lookup';
import type { CallContext } from '../face-a/face-a-call.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import { buildIpReport, type IpReport } from './ip-report.js';
import type { AddressExplainer, ReverseDns } from './report.ports.js';

export interface IpReportsDeps {
  lookups: FaceALookups;
  explainer: AddressExplainer;
  /** Undefined until a resolver is wired: the report then says reverse DNS is unavailable. */
  reverseDns: ReverseDns | undefined;
  clock: Clock;
  logger: Logger;
}

/**
 * Builds IP reports. A report is one lookup of the visitor (FaceALookups: the per-visitor limit
 * and one usage event, `endpoint` = the call) whose engine call is ExplainAddress; reverse DNS
 * runs beside it, and its failure leaves the report standing.
 */
export class IpReports {
  constructor(private readonly deps: IpReportsDeps) {}

  async generate(context: CallContext, address: CheckedAddress, endpoint: string): Promise<IpReport> {
    let explained: ExplainAddressResponse | undefined;
    let reverse: Promise<IpReport['reverse_dns']> | undefined;
    const info = await this.deps.lookups.lookUp(context, address, endpoint, async (ip) => {
      reverse = this.reverse(ip);
      explained = await this.deps.explainer.explain(ip);
      if (explained.info === undefined) throw new InternalError(`lookup engine explained ${ip} without info`);
      return explained.info;
    });
    const reverseDns =
      address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED || reverse === undefined
        ? { status: 'skipped' as const, names: [] }
        : await reverse;
    return buildIpReport(info, explained, reverseDns, this.deps.clock.now());
  }

  private async reverse(ip: string): Promise<IpReport['reverse_dns']> {
    if (this.deps.reverseDns === undefined) return { status: 'unavailable', names: [] };
    try {
      const names = await this.deps.reverseDns.reverse(ip);
      return names.length > 0 ? { status: 'found', names } : { status: 'none', names: [] };
    } catch (error) {
      this.deps.logger.debug({ err: error, ip }, 'reverse DNS failed; report without PTR names');
      return { status: 'unavailable', names: [] };
    }
  }
}
