import { callUnary } from '@ipdata/common';
import type {
  ListDatasetStatisticsRequest,
  ListIdcOrganizationsRequest,
  LookupServiceClient,
} from '@ipdata/proto/lookup/v1/lookup';
import type { DatasetStatisticsSource } from '../../statistics/statistics.ports.js';

/**
 * The lookup engine's statistics RPCs. The tuned lookup client is a LookupServiceClient too (only
 * lookup and batchLookup are tuned), so app.ts passes the same channel; statuses arrive as
 * DomainErrors (UNAVAILABLE when the served version has no statistics → code 503).
 */
export class GrpcDatasetStatistics implements DatasetStatisticsSource {
  constructor(
    private readonly client: LookupServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  current() {
    return callUnary(this.client.getDatasetStatistics.bind(this.client), {}, undefined, this.options());
  }

  idcOrganizations(request: ListIdcOrganizationsRequest) {
    return callUnary(this.client.listIdcOrganizations.bind(this.client), request, undefined, this.options());
  }

  history(request: ListDatasetStatisticsRequest) {
    return callUnary(this.client.listDatasetStatistics.bind(this.client), request, undefined, this.options());
  }
}
