import {
  ConfigError,
  env,
  grpcServerEnv,
  grpcTransportProblems,
  kafkaEnv,
  loadConfig,
  mongoEnv,
  redisEnv,
  serviceEnv,
  type ConfigOf,
} from '@ipdata/common';

/** Every variable stats reads (README.md lists them with their meaning). */
export const statsEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  HEALTH_PORT: env.port(9104),
  GRPC_PORT: env.port(50054),
  ...grpcServerEnv('stats'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'stats', expected: 'a Kafka client id' }),
  // Prefix of the consumer groups: `<id>` reads usage.lookup.v1, `<id>.visits` site.visit.v1, `<id>.plans` billing.subscription.v1.
  KAFKA_GROUP_ID: env.string({ default: 'stats', expected: 'a Kafka consumer group id' }),
  // How fast a dead member's partitions move to a new one (a restarted process rejoins after it);
  // 6 s is the broker's group.min.session.timeout.ms.
  KAFKA_SESSION_TIMEOUT_MS: env.int({ min: 6_000, max: 300_000, default: 30_000 }),
  ...mongoEnv,
  ...redisEnv,
  // Prefix of stats' own Redis keys (event claims, unique-visitor HyperLogLogs), so stats processes
  // sharing one Redis (test runs) keep apart: `<prefix>claim:<id>`, `<prefix>visit-claim:<id>`, `<prefix>uv:...`.
  REDIS_KEY_PREFIX: env.string({ default: 'stats:', expected: 'a Redis key prefix, e.g. "stats:"' }),
  // Where a new ledger consumer group starts: the whole retained ledger (production), or only what
  // arrives from now on (a test system sharing a broker with earlier tests' ledgers).
  LEDGER_NEW_GROUP_START: env.oneOf(['earliest', 'latest'], 'earliest'),
  // Ledger records handled per write round (one claim script, one bulk write per collection).
  LEDGER_BATCH_MAX: env.int({ min: 1, max: 20_000, default: 2_000 }),
  // Event ids are remembered this long for de-duplication (TOPICS.md: at least 2 days).
  DEDUP_TTL_SECONDS: env.int({ min: 60, max: 30 * 24 * 3600, default: 3 * 24 * 3600 }),
  // An hour is closed (final for billing, published once per account) this long after it ended.
  HOUR_CLOSE_DELAY_MS: env.int({ min: 0, max: 7 * 24 * 3600 * 1000, default: 5 * 60 * 1000 }),
  // How often the closer looks for hours to close.
  CLOSE_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 10_000 }),
  // How often the running month total of accounts with new usage goes to usage.rollup.v1.
  LIVE_ROLLUP_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 5_000 }),
  // bff-en's quota counters (QUOTA_KEY_PREFIX there): what reconciliation rebuilds.
  QUOTA_KEY_PREFIX: env.string({ default: 'quota:', expected: 'the Redis key prefix of the quota counters' }),
  // How often the quota counters are raised to the rollups (bff-en's fail-open grants are counted
  // this way); 0 = only on demand (ReconcileQuotas, `make usage-reconcile`).
  QUOTA_RECONCILE_INTERVAL_SECONDS: env.int({ min: 0, max: 86_400, default: 60 }),
};

export type StatsConfig = ConfigOf<typeof statsEnv>;

export function loadStatsConfig(source: NodeJS.ProcessEnv = process.env): StatsConfig {
  const config = loadConfig(statsEnv, source);
  const problems: string[] = grpcTransportProblems(config, source);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
