import { callUnary } from '@ipdata/common';
import type {
  CreateDownloadLinkRequest,
  CreateDownloadLinkResponse,
  DownloadsServiceClient,
  GetSampleLinkResponse,
  ListDatabasesResponse,
  ListDownloadHistoryResponse,
} from '@ipdata/proto/downloads/v1/downloads';
import type { DatabaseDownloads } from '../../databases/databases.ports.js';

/** DatabaseDownloads over the downloads service's gRPC API; failures arrive as DomainErrors. */
export class GrpcDatabaseDownloads implements DatabaseDownloads {
  constructor(
    private readonly client: DownloadsServiceClient,
    private readonly deadlineMs = 3_000,
  ) {}

  list(accountId: string): Promise<ListDatabasesResponse> {
    return callUnary(this.client.listDatabases.bind(this.client), { accountId }, undefined, this.options());
  }

  createLink(request: CreateDownloadLinkRequest): Promise<CreateDownloadLinkResponse> {
    return callUnary(this.client.createDownloadLink.bind(this.client), request, undefined, this.options());
  }

  sampleLink(database: string, format: string): Promise<GetSampleLinkResponse> {
    return callUnary(this.client.getSampleLink.bind(this.client), { database, format }, undefined, this.options());
  }

  history(accountId: string, page: number, pageSize: number): Promise<ListDownloadHistoryResponse> {
    return callUnary(this.client.listDownloadHistory.bind(this.client), { accountId, page, pageSize }, undefined, this.options());
  }

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }
}
