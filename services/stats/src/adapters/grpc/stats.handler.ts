import type { Logger } from 'pino';
import { unary, type GrpcServer } from '@ipdata/common';
import { StatsServiceService, type StatsServiceServer } from '@ipdata/proto/stats/v1/stats';
import type { QuotaReconciler } from '../../reconcile/quota-reconciler.js';
import type { RollupReplays } from '../../replay/rollup-replay.js';
import type { TrendQueries } from '../../trends/trend.queries.js';
import type { UsageQueries } from '../../usage/usage.queries.js';
import type { VisitQueries } from '../../visits/visit.queries.js';
import { getReplay, reconcileQuotas, startReplay } from './ops.grpc.js';
import { getCountryTrend, getProvinceTrend, getSearchCounts } from './trends.grpc.js';
import { getMonthUsage, getUsage } from './usage.grpc.js';
import { getVisits } from './visits.grpc.js';

export const STATS_SERVICE_NAME = 'ipdata.stats.v1.StatsService';

export interface StatsHandlerDeps {
  usage: UsageQueries;
  trends: TrendQueries;
  visits: VisitQueries;
  reconciler: QuotaReconciler;
  replays: RollupReplays;
}

/** Thin gRPC handlers: each area maps its own messages (usage/trends/visits/ops.grpc.ts); errors are mapped by unary(). */
export function addStatsService(server: GrpcServer, deps: StatsHandlerDeps, logger: Logger): void {
  const name = (method: string) => method;
  const implementation: StatsServiceServer = {
    getUsage: unary(logger, name('GetUsage'), (request) => getUsage(deps.usage, request)),
    getMonthUsage: unary(logger, name('GetMonthUsage'), (request) => getMonthUsage(deps.usage, request)),
    getCountryTrend: unary(logger, name('GetCountryTrend'), (request) => getCountryTrend(deps.trends, request)),
    getProvinceTrend: unary(logger, name('GetProvinceTrend'), (request) => getProvinceTrend(deps.trends, request)),
    getSearchCounts: unary(logger, name('GetSearchCounts'), (request) => getSearchCounts(deps.trends, request)),
    getVisits: unary(logger, name('GetVisits'), (request) => getVisits(deps.visits, request)),
    reconcileQuotas: unary(logger, name('ReconcileQuotas'), (request) => reconcileQuotas(deps.reconciler, request)),
    startReplay: unary(logger, name('StartReplay'), async (request) => startReplay(deps.replays, request)),
    getReplay: unary(logger, name('GetReplay'), async (request) => getReplay(deps.replays, request)),
  };
  server.addService(STATS_SERVICE_NAME, StatsServiceService, implementation);
}
