import { defineAccessPolicy, type GrpcIdentity } from '@ipdata/common';
import { StatsServiceService } from '@ipdata/proto/stats/v1/stats';

/**
 * Who may call stats (identity = client certificate CN, see services/common/README.md "gRPC").
 * bff-en reads an account's usage (GET /v1/usage, the dashboard); both BFFs read the public
 * trends and visit counts (face A's statistics pages, face B's home map). Rebuilding quota
 * counters and replaying the ledger change state: operators only (scripts/ops).
 */
const BFFS: readonly GrpcIdentity[] = ['bff-cn', 'bff-en'];

export const statsAccessPolicy = defineAccessPolicy(StatsServiceService, {
  getUsage: ['bff-en', 'operator'],
  getMonthUsage: ['bff-en', 'operator'],
  getCountryTrend: [...BFFS, 'operator'],
  getProvinceTrend: [...BFFS, 'operator'],
  getSearchCounts: [...BFFS, 'operator'],
  getVisits: [...BFFS, 'operator'],
  reconcileQuotas: ['operator'],
  startReplay: ['operator'],
  getReplay: ['operator'],
});
