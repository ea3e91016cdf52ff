import { unary, UnavailableError, type Logger } from '@ipdata/common';
import type {
  GetDatasetStatisticsRequest,
  GetDatasetStatisticsResponse,
  ListDatasetStatisticsRequest,
  ListDatasetStatisticsResponse,
  ListIdcOrganizationsRequest,
  ListIdcOrganizationsResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import type { DatasetStore } from '../dataset/dataset-store.js';
import type { ServedStatistics } from '../statistics/served-statistics.js';
import { historyPage, idcPage } from '../statistics/statistics-queries.js';
import type { StatisticsHistory } from '../statistics/statistics-files.js';

/** gRPC handlers of the statistics methods: the served dataset's statistics and the per-version history. */
export function statisticsHandlers(store: DatasetStore, history: StatisticsHistory, logger: Logger) {
  const served = (): ServedStatistics => {
    const active = store.current();
    if (active.statistics === undefined)
      throw new UnavailableError(active.statisticsProblem ?? 'no statistics for the dataset in service', {
        reason: 'statistics_missing',
      });
    return active.statistics;
  };

  return {
    getDatasetStatistics: unary<GetDatasetStatisticsRequest, GetDatasetStatisticsResponse>(
      logger,
      'GetDatasetStatistics',
      async () => served().response,
    ),

    listIdcOrganizations: unary<ListIdcOrganizationsRequest, ListIdcOrganizationsResponse>(
      logger,
      'ListIdcOrganizations',
      async (request) => idcPage(served(), request),
    ),

    listDatasetStatistics: unary<ListDatasetStatisticsRequest, ListDatasetStatisticsResponse>(
      logger,
      'ListDatasetStatistics',
      async (request) => historyPage(await history.versions(), request),
    ),
  };
}
