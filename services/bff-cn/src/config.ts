import {
  ConfigError,
  env,
  grpcTlsEnv,
  grpcTransportProblems,
  isProductionEnv,
  kafkaEnv,
  loadConfig,
  redisEnv,
  serviceEnv,
  weakSecretProblems,
  withDevelopmentValues,
  type ConfigOf,
} from '@ipdata/common';

/** Every variable bff-cn reads (README.md lists them with their meaning). */
export const bffCnEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  // Face A's /v1 and /v2 calls, /v1/openapi.json, /healthz and /readyz share this port.
  HEALTH_PORT: env.port(8081),
  ...grpcTlsEnv('bff-cn'),
  LOOKUP_GRPC_ADDR: env.address('127.0.0.1:50051'),
  AUTH_GRPC_ADDR: env.address('127.0.0.1:50052'),
  BILLING_GRPC_ADDR: env.address('127.0.0.1:50053'),
  STATS_GRPC_ADDR: env.address('127.0.0.1:50054'),
  CONTENT_GRPC_ADDR: env.address('127.0.0.1:50056'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'bff-cn', expected: 'a Kafka client id' }),
  ...redisEnv,
  // Comma-separated addresses or CIDRs whose X-Forwarded-For is believed (the ingress); empty = none.
  TRUSTED_PROXIES: env.list({ expected: 'comma-separated IP addresses or CIDR blocks (may be empty)' }),
  // Salt of the visitor id (HMAC of client address + User-Agent): without it ids could be reversed
  // by hashing every IPv4 address.
  VISITOR_ID_SECRET: env.secret(env.string({ expected: 'a secret of at least 32 characters' })),
  // Lookups one visitor address (IPv4, or IPv6 /64) may make per window; past it: code 429.
  LOOKUP_RATE_LIMIT: env.int({ min: 1, max: 1_000_000, default: 120 }),
  LOOKUP_RATE_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 60 }),
  // Form bodies: urlencoded and the fields of a multipart body; uploads have their own limit.
  FORM_MAX_FIELD_BYTES: env.int({ min: 1024, max: 10 * 1024 * 1024, default: 64 * 1024 }),
  UPLOAD_MAX_BYTES: env.int({ min: 1024, max: 100 * 1024 * 1024, default: 8 * 1024 * 1024 }),
  // gRPC deadline of every call bff-cn makes.
  GRPC_DEADLINE_MS: env.int({ min: 100, max: 60_000, default: 3_000 }),
};

export type BffCnConfig = ConfigOf<typeof bffCnEnv>;

/** Filled in only with APP_ENV=development (`make up` without a secrets file); refused in production. */
export const DEVELOPMENT_VALUES: Readonly<Record<string, string>> = {
  VISITOR_ID_SECRET: 'dev-only-visitor-id-secret-not-for-production-00',
};

export function loadBffCnConfig(source: NodeJS.ProcessEnv = process.env): BffCnConfig {
  const filled = withDevelopmentValues(source, DEVELOPMENT_VALUES);
  const config = loadConfig(bffCnEnv, filled);
  const problems: string[] = [
    ...grpcTransportProblems(config, filled),
    ...weakSecretProblems(config, {
      names: ['VISITOR_ID_SECRET'],
      developmentValues: Object.values(DEVELOPMENT_VALUES),
      production: isProductionEnv(filled),
    }),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
