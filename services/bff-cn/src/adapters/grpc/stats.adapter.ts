import { callUnary } from '@ipdata/common';
import { VisitSite } from '@ipdata/proto/events/v1/visit';
import type { StatsServiceClient } from '@ipdata/proto/stats/v1/stats';
import type { VisitCounts } from '../../visits/visit.ports.js';

/**
 * stats over gRPC (mutual TLS as `bff-cn`; stats' access policy allows the BFFs GetVisits): face
 * A's page views and unique visitors. Trend and search-count methods live in
 * stats-trends.adapter.ts (helper H10), each with its own client.
 */
export class GrpcVisitCounts implements VisitCounts {
  constructor(
    private readonly client: StatsServiceClient,
    private readonly deadlineMs: number,
  ) {}

  visits(range: { from: Date; to: Date; page: string }) {
    const request = { from: range.from, to: range.to, site: VisitSite.VISIT_SITE_CN, page: range.page, plat: '' };
    return callUnary(this.client.getVisits.bind(this.client), request, undefined, { deadline: Date.now() + this.deadlineMs });
  }
}
