import type {
  GetDatasetStatisticsResponse,
  ListDatasetStatisticsRequest,
  ListDatasetStatisticsResponse,
  ListIdcOrganizationsRequest,
  ListIdcOrganizationsResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import type { Trend } from '@ipdata/proto/stats/v1/stats';

/** The lookup engine's statistics of the dataset it serves (its statistics RPCs). */
export interface DatasetStatisticsSource {
  current(): Promise<GetDatasetStatisticsResponse>;
  idcOrganizations(request: ListIdcOrganizationsRequest): Promise<ListIdcOrganizationsResponse>;
  history(request: ListDatasetStatisticsRequest): Promise<ListDatasetStatisticsResponse>;
}

/** A UTC day range [from, to) of face A's own lookups (channel WEB_CN), counted per day. */
export interface TrendRange {
  from: Date;
  to: Date;
  /** Keys per day and in the total, largest first; 0 = all. */
  limit: number;
}

/** stats' lookup trends of face A (GetCountryTrend, GetProvinceTrend, GetSearchCounts). */
export interface LookupTrendSource {
  countries(range: TrendRange): Promise<Trend>;
  provinces(range: TrendRange): Promise<Trend>;
  endpoints(range: TrendRange): Promise<Trend>;
}
