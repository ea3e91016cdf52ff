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
  weakSecretProblems,
  withDevelopmentValues,
  type ConfigOf,
} from '@ipdata/common';

/** Every variable bff-en reads (README.md lists them with their meaning). */
export const bffEnEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  // The public API, the web API, the web app and /healthz + /readyz share this port.
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
  // Quota leases: an account far from its limit is served from a block of lookups this process
  // holds, renewed (and what it granted counted) every QUOTA_LEASE_INTERVAL_MS; 0 = every
  // reservation asks Redis (README.md, "Quotas").
  QUOTA_LEASE_INTERVAL_MS: env.int({ min: 0, max: 1_000, default: 100 }),
  // Bulk job files (uploads and results, under <DATA_DIR>/bulk).
  DATA_DIR: env.string({ default: 'var/bff-en', expected: 'a directory for bulk job files' }),
  // V8's old-generation growing factor as a percentage (common's setHeapGrowingPercent): 100 = the next
  // mark-compact at twice what the last left alive, instead of a factor V8 picks per moment
  // (README.md, "The hot path"); 0 = V8's own.
  V8_HEAP_GROWING_PERCENT: env.int({ min: 0, max: 1_000, default: 100 }),
  BULK_MAX_LINES: env.int({ min: 1, max: 10_000_000, default: 1_000_000 }),
  BULK_MAX_BYTES: env.int({ min: 1024, max: 1024 * 1024 * 1024, default: 64 * 1024 * 1024 }),
  BULK_CONCURRENT_JOBS: env.int({ min: 1, max: 16, default: 1 }),
  // The web app's API (/api): where the site is (checkout return, CSRF origin check) and its cookies.
  SITE_ORIGIN: env.url(['http', 'https'], 'http://127.0.0.1:8082'),
  // The `token` cookie's Domain: the site domain ("example.com" covers www. too); empty = this host only.
  COOKIE_DOMAIN: env.domainName({ default: '' }),
  // The web app's unread-message badge and the contact form (content's GetUnreadCount, SubmitContact).
  CONTENT_GRPC_ADDR: env.address('127.0.0.1:50056'),
  // Keys the anonymous visitor ids of the lookup tool's usage events (HMAC; like bff-cn's).
  VISITOR_ID_SECRET: env.secret(env.string({ expected: 'a secret of at least 32 characters' })),
  // The web lookup tool: requests per visitor address per window (Redis, shared by every replica).
  WEB_LOOKUP_RATE_LIMIT: env.int({ min: 1, max: 1_000_000, default: 60 }),
  WEB_LOOKUP_RATE_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 60 }),
  // The contact form: messages per visitor address per window (Redis, shared by every replica).
  WEB_CONTACT_RATE_LIMIT: env.int({ min: 1, max: 1_000_000, default: 10 }),
  WEB_CONTACT_RATE_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 3_600 }),
  // Single lookups (coalesced) travel on one long-lived BatchLookupCompactStream; false: a unary call per batch.
  LOOKUP_ENGINE_STREAM: env.flag(true),
  // off: no quota and no usage ledger, quota-only / ledger-only: one of them — only for measuring their cost (scripts/bench); refused in production.
  PUBLIC_API_ACCOUNTING: env.oneOf(['on', 'off', 'quota-only', 'ledger-only'], 'on'),
  // Face B's built app on this port beside /v1 and /api (common's web-app); false where something else serves it.
  WEB_APP_ENABLED: env.flag(true),
  WEB_DIST_DIR: env.string({ default: 'frontends/en/dist', expected: 'the directory of the built face B app' }),
};

export type BffEnConfig = ConfigOf<typeof bffEnEnv>;

/** Filled in only with APP_ENV=development (`make up` without a secrets file); refused in production. */
const DEVELOPMENT_VALUES: Readonly<Record<string, string>> = {
  VISITOR_ID_SECRET: 'dev-only-visitor-id-secret-not-for-production-00',
};

export function loadBffEnConfig(source: NodeJS.ProcessEnv = process.env): BffEnConfig {
  const filled = withDevelopmentValues(source, DEVELOPMENT_VALUES);
  const config = loadConfig(bffEnEnv, filled);
  const problems: string[] = [
    ...grpcTransportProblems(config, filled),
    ...weakSecretProblems(config, {
      names: ['VISITOR_ID_SECRET'],
      developmentValues: Object.values(DEVELOPMENT_VALUES),
      production: isProductionEnv(filled),
    }),
  ];
  if (config.PUBLIC_API_ACCOUNTING !== 'on' && isProductionEnv(filled)) {
    problems.push(
      `PUBLIC_API_ACCOUNTING: "${config.PUBLIC_API_ACCOUNTING}" serves lookups without quota or usage events and is refused in production`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
