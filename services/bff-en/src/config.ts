import {
  env,
  grpcTlsEnv,
  grpcTransportProblems,
  isProductionEnv,
  kafkaEnv,
  loadConfig,
  mongoEnv,
  redisEnv,
  serviceEnv,
  ConfigError,
  type ConfigOf,
} from '@ipdata/common';

/** Every variable bff-en reads (README.md lists them with their meaning). */
export const bffEnEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  // The public API, later the web API, and /healthz + /readyz share this port.
  HEALTH_PORT: env.port(8082),
  ...grpcTlsEnv('bff-en'),
  LOOKUP_GRPC_ADDR: env.address('127.0.0.1:50051'),
  AUTH_GRPC_ADDR: env.address('127.0.0.1:50052'),
  BILLING_GRPC_ADDR: env.address('127.0.0.1:50053'),
  // Per-day usage of GET /v1/usage (the quota counters answer while stats does not).
  STATS_GRPC_ADDR: env.address('127.0.0.1:50054'),
  // The /v1/databases routes: catalogue, signed download links, samples.
  DOWNLOADS_GRPC_ADDR: env.address('127.0.0.1:50055'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'bff-en', expected: 'a Kafka client id' }),
  // Cache invalidation consumers: every replica must see every event, so the group is per replica.
  INSTANCE_ID: env.string({ default: 'local', expected: 'a name unique per replica (pod name)' }),
  ...mongoEnv,
  ...redisEnv,
  // Comma-separated addresses or CIDRs whose X-Forwarded-For is believed (the ingress); empty = none.
  TRUSTED_PROXIES: env.list({ expected: 'comma-separated IP addresses or CIDR blocks (may be empty)' }),
  // Comma-separated DNS servers (host or host:port) for /v1/domain; empty = the system's resolvers.
  DNS_SERVERS: env.list({ expected: 'comma-separated DNS server addresses (may be empty)' }),
  DNS_TIMEOUT_MS: env.int({ min: 100, max: 30_000, default: 2_000 }),
  // Requests per second one key may start when its plan names no burst limit.
  DEFAULT_BURST_PER_SECOND: env.int({ min: 1, max: 1_000_000, default: 50 }),
  // Where usage events wait (write-ahead journal), quota grants made while Redis was down, and bulk jobs.
  DATA_DIR: env.string({ default: 'var/bff-en', expected: 'a directory for journals and bulk job files' }),
  BULK_MAX_LINES: env.int({ min: 1, max: 10_000_000, default: 1_000_000 }),
  BULK_MAX_BYTES: env.int({ min: 1024, max: 1024 * 1024 * 1024, default: 64 * 1024 * 1024 }),
  BULK_CONCURRENT_JOBS: env.int({ min: 1, max: 16, default: 1 }),
  // off: no quota and no usage ledger — only for measuring their cost (scripts/bench); refused in production.
  PUBLIC_API_ACCOUNTING: env.oneOf(['on', 'off'], 'on'),
};

export type BffEnConfig = ConfigOf<typeof bffEnEnv>;

export function loadBffEnConfig(source: NodeJS.ProcessEnv = process.env): BffEnConfig {
  const config = loadConfig(bffEnEnv, source);
  const problems: string[] = grpcTransportProblems(config, source);
  if (config.PUBLIC_API_ACCOUNTING === 'off' && isProductionEnv(source)) {
    problems.push('PUBLIC_API_ACCOUNTING: "off" serves lookups without quota or usage events and is refused in production');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
