// The quota domain as bff-en's other modules use it. The Redis-backed factory
// (createRedisQuotaService) is in ../adapters/redis/index.ts, so this barrel stays driver-free.
export { QuotaService, type QuotaServiceOptions, type QuotaStats } from './quota.service.js';
export {
  QuotaUnavailableError,
  monthlyCeiling,
  quotaSubjectOf,
  quotaSubjectOfPlan,
  type DayCount,
  type QuotaDecision,
  type QuotaDenial,
  type QuotaRequest,
  type QuotaStatus,
  type QuotaSubject,
} from './quota.types.js';
export { monthToDate, periodOf, type QuotaPeriod } from './quota-period.js';
export type { KeyedReserveCommand, QuotaStore, ReserveCommand, ReserveOutcome, UsageCounters } from './quota.ports.js';
