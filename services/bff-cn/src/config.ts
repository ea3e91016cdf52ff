import {
  ConfigError,
  env,
  grpcTlsEnv,
  grpcTransportProblems,
  isProductionEnv,
  kafkaEnv,
  loadConfig,
  mongoEnv,
  redisEnv,
  serviceEnv,
  weakSecretProblems,
  withDevelopmentValues,
  type ConfigOf,
} from '@ipdata/common';
import { parseWhoisServer } from './whois/whois-parse.js';

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
  // The site name web_init gives the page (title, footer).
  SITE_NAME: env.string({ default: 'IP 地址查询', expected: 'the site name shown on face A' }),
  // Face A's public origin: billing's checkout sends VIP buyers back to <origin>/vip (the origin
  // must be on billing's CHECKOUT_RETURN_ORIGINS).
  SITE_ORIGIN: env.url(['http', 'https'], 'http://127.0.0.1:8081'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'bff-cn', expected: 'a Kafka client id' }),
  // The usage relay's name in the stream's consumer group (services/metering): unique per replica.
  INSTANCE_ID: env.string({ default: 'local', expected: 'a name unique per replica (pod name)' }),
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
  // Network detection (traceroute_task_*; README "Network detection").
  // Private, loopback and other reserved targets allowed (tests, a lab); never in production.
  PROBE_ALLOW_PRIVATE: env.flag(false),
  // A task no worker started by then is dropped unstarted (ProbeTask.expires_at).
  PROBE_TASK_TTL_SECONDS: env.int({ min: 10, max: 3_600, default: 120 }),
  // After expires_at, how long a started task may still run (probe's TASK_TIMEOUT_MS, 90 s, plus
  // slack) before a task with no final record is answered failed "探测超时".
  PROBE_RESULT_GRACE_SECONDS: env.int({ min: 1, max: 3_600, default: 120 }),
  PROBE_MAX_HOPS: env.int({ min: 1, max: 64, default: 30 }),
  // Tasks one visitor address (IPv4, or IPv6 /64) may add per window; past it: code 429.
  PROBE_TASK_LIMIT: env.int({ min: 1, max: 100_000, default: 10 }),
  PROBE_TASK_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 600 }),
  // Task state, hops and heartbeats are kept this long in Redis.
  PROBE_STATE_TTL_SECONDS: env.int({ min: 60, max: 7 * 86_400, default: 86_400 }),
  // One group shared by the replicas (they share Redis); where a new group starts.
  PROBE_RESULTS_GROUP_ID: env.string({ default: 'bff-cn.probe-results', expected: 'a Kafka consumer group id' }),
  PROBE_RESULTS_NEW_GROUP_START: env.oneOf(['earliest', 'latest'], 'latest'),
  // Resolvers of a domain target (ip or ip:port, comma-separated); empty: the host's resolv.conf.
  DNS_SERVERS: env.list({ expected: 'comma-separated DNS server addresses (may be empty)' }),
  DNS_TIMEOUT_MS: env.int({ min: 100, max: 30_000, default: 2_000 }),
  // get_whois (README "Domains and WHOIS"): the first server asked (host[:port]), per-hop connect +
  // answer timeout, and the overall cap of all hops (IANA → registry → registrar).
  WHOIS_SERVER: env.string({ default: 'whois.iana.org:43', expected: 'host or host:port' }),
  WHOIS_TIMEOUT_MS: env.int({ min: 100, max: 60_000, default: 5_000 }),
  WHOIS_OVERALL_TIMEOUT_MS: env.int({ min: 100, max: 120_000, default: 12_000 }),
  // Tests and labs only: follow referrals to IP literals and to ports other than 43.
  WHOIS_REFERRAL_ALLOW_IP: env.flag(false),
  WHOIS_REFERRAL_OTHER_PORTS: env.flag(false),
  // get_whois and get_domain_by_ip per visitor address (IPv4, or IPv6 /64); past it: code 429.
  DOMAIN_TOOLS_RATE_LIMIT: env.int({ min: 1, max: 100_000, default: 30 }),
  DOMAIN_TOOLS_RATE_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 600 }),
  // IP report (report_generate*): deadline of ExplainAddress, whose first call on an engine opens
  // the source files (about 4 s measured) before answering.
  REPORT_EXPLAIN_DEADLINE_MS: env.int({ min: 100, max: 120_000, default: 20_000 }),
  // Batch lookups (query_ip_batch_zone, upload_ip_xlsx; README "Batch lookups"): jobs of the
  // shared bulk engine in MongoDB (face_a_batch_jobs, face_a_batch_job_claims), their files under BATCH_DIR
  // (replicas must share it).
  ...mongoEnv,
  BATCH_DIR: env.string({ default: 'var/bff-cn/batch', expected: 'a directory for batch job files' }),
  // Rows per batch: visitors and logged-in users without VIP, and VIP accounts.
  BATCH_MAX_ROWS: env.int({ min: 1, max: 1_000_000, default: 10_000 }),
  BATCH_VIP_MAX_ROWS: env.int({ min: 1, max: 1_000_000, default: 100_000 }),
  // Batch calls one visitor address (IPv4, or IPv6 /64) may make per window; past it: code 429.
  BATCH_RATE_LIMIT: env.int({ min: 1, max: 100_000, default: 20 }),
  BATCH_RATE_WINDOW_SECONDS: env.int({ min: 1, max: 86_400, default: 3_600 }),
  // Jobs this process looks up at once (others wait in submit order), and how long a call waits
  // for its job before answering 503.
  BATCH_CONCURRENT_JOBS: env.int({ min: 1, max: 32, default: 2 }),
  BATCH_WAIT_SECONDS: env.int({ min: 1, max: 600, default: 120 }),
  // The built face A app (README "Web app"): served from this port with the calls. A relative dir
  // is taken from the repo root (services run in their data dir); without index.html in it only
  // the API is served. Off where something else (an ingress, a CDN) serves the files.
  WEB_APP_ENABLED: env.flag(true),
  WEB_DIST_DIR: env.string({ default: 'frontends/cn/dist', expected: 'the directory of the built face A app' }),
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
    // The configured server may use any port (a lab's); referrals follow WHOIS_REFERRAL_* rules.
    ...(parseWhoisServer(config.WHOIS_SERVER, { allowIpLiterals: true, allowAnyPort: true }) === undefined
      ? ['WHOIS_SERVER must be host or host:port (IPv6 as [addr]:port)']
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
