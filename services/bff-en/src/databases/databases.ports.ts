import type {
  CreateDownloadLinkRequest,
  CreateDownloadLinkResponse,
  GetSampleLinkResponse,
  ListDatabasesResponse,
  ListDownloadHistoryResponse,
} from '@ipdata/proto/downloads/v1/downloads';
import type { PlanTier } from '@ipdata/proto/events/v1/billing';

/**
 * What the /v1/databases routes need from the downloads service (adapters/grpc/downloads.adapter.ts).
 * Failures arrive as common DomainErrors: NotFoundError (unknown database/format, no sample, nothing
 * published), PermissionDeniedError (plan), ResourceExhaustedError (daily limit), UnavailableError.
 */
export interface DatabaseDownloads {
  /** The catalogue; with an account, `entitled` per file and the account's download plan. */
  list(accountId: string): Promise<ListDatabasesResponse>;
  createLink(request: CreateDownloadLinkRequest): Promise<CreateDownloadLinkResponse>;
  sampleLink(database: string, format: string): Promise<GetSampleLinkResponse>;
  /** The account's downloads, newest first (the Data Downloads screen). */
  history(accountId: string, page: number, pageSize: number): Promise<ListDownloadHistoryResponse>;
}

/** A data-download plan of billing's catalogue, as the 403 message names it. */
export interface DownloadPlan {
  id: string;
  /** Shown to customers: "Business". Monthly and yearly plans share it. */
  name: string;
  tier: PlanTier;
  /** Price per month in minor units (a yearly price divided by 12); 0 for free and sales-only plans. */
  monthlyPriceMinor: number;
  datasets: readonly string[];
}

/** Billing's data-download plans (adapters/grpc/billing-plans.adapter.ts). */
export interface DownloadPlans {
  downloadPlans(): Promise<DownloadPlan[]>;
}
