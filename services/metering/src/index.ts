// Metering for both faces (README.md): the quota, the usage ledger and their Redis and Kafka adapters.
export { Metering, QuotaDeniedError, type Caller, type UsageFacts, type UsageOwner } from './metering.js';

export { QuotaService, type QuotaServiceOptions, type QuotaStats } from './quota/quota.service.js';
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
} from './quota/quota.types.js';
export { monthToDate, periodOf, type QuotaPeriod } from './quota/quota-period.js';
export type { KeyedReserveCommand, QuotaStore, ReserveCommand, ReserveOutcome, UsageCounters } from './quota/quota.ports.js';

export { UsageLedger, type UsageLedgerConfig, type UsageLedgerStats } from './ledger/usage-ledger.js';
export { UsageRelay, type UsageRelayConfig, type UsageRelayStats } from './ledger/usage-relay.js';
export { UsageChannel, UsageResult, toUsageEvent, usageEventKey, type UsageRecord } from './ledger/usage-record.js';
export type { StoredUsageGroup, UsageEventSink, UsageEventStore, UsageStreamReader } from './ledger/usage.ports.js';

export {
  RedisQuotaStore,
  createRedisQuotaService,
  type RedisQuotaServiceOptions,
  type RedisQuotaStoreOptions,
} from './adapters/redis/quota.redis-store.js';
export {
  RedisQuotaCounters,
  type QuotaCounterFloor,
  type QuotaCounters,
  type RedisQuotaCountersOptions,
} from './adapters/redis/quota-counters.redis.js';
export { RedisUsageStream, type RedisUsageStreamOptions } from './adapters/redis/usage-stream.redis.js';
export {
  DEFAULT_QUOTA_KEY_PREFIX,
  QUOTA_COUNTER_TTL_SECONDS,
  quotaAccountDayKey,
  quotaDay,
  quotaKeyDayKey,
  quotaMonth,
  quotaMonthKey,
} from './adapters/redis/quota-keys.js';
export { UsageKafkaSink, type UsageKafkaSinkConfig } from './adapters/kafka/usage-kafka.sink.js';
export { meteringFromConfig, type MeteringConfig, type MeteringParts } from './adapters/metering.wiring.js';
