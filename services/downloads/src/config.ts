import {
  ConfigError,
  env,
  grpcServerEnv,
  grpcTransportProblems,
  isProductionEnv,
  kafkaEnv,
  loadConfig,
  mongoEnv,
  serviceEnv,
  weakSecretProblems,
  withDevelopmentValues,
  type ConfigOf,
} from '@ipdata/common';

/** Every variable downloads reads (README.md lists them with their meaning). */
export const downloadsEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  // The file server (signed links, samples) shares this port with /healthz and /readyz.
  HEALTH_PORT: env.port(9105),
  GRPC_PORT: env.port(50055),
  ...grpcServerEnv('downloads'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'downloads', expected: 'a Kafka client id' }),
  // Prefix of the consumer groups: `<id>.datasets` (dataset.published.v1), `<id>.subscriptions` (billing.subscription.v1).
  KAFKA_GROUP_ID: env.string({ default: 'downloads', expected: 'a Kafka consumer group id' }),
  KAFKA_SESSION_TIMEOUT_MS: env.int({ min: 6_000, max: 300_000, default: 30_000 }),
  ...mongoEnv,
  // Root of the dataset version folders and the `current` pointer (shared with the dataset job and the lookup engine).
  DATASETS_DIR: env.string({ default: 'var/datasets', expected: 'a folder path' }),
  // Where downloaders reach the file server (links and sample URLs are absolute on it).
  PUBLIC_BASE_URL: env.url(['http', 'https'], 'http://127.0.0.1:9105'),
  // Signs download links. No default: a known secret would let anyone forge links. `make up` gets a dev value below.
  DOWNLOAD_LINK_SECRET: env.secret(env.string({ expected: 'the link signing secret (at least 32 characters)' })),
  LINK_TTL_SECONDS: env.int({ min: 30, max: 24 * 3600, default: 600 }),
  DAILY_DOWNLOAD_LIMIT: env.int({ min: 1, max: 10_000, default: 20 }),
  // What an account may download before billing's first event about it arrived (billing gives everyone this plan).
  FREE_DOWNLOAD_PLAN_ID: env.string({ default: 'download-free', expected: 'a plan id' }),
  FREE_DOWNLOAD_DATASETS: env.list({ default: 'asn', expected: 'comma-separated dataset ids (may be empty)' }),
  // Dataset versions kept in DATASETS_DIR (the newest; never the current one or one being downloaded).
  KEEP_VERSIONS: env.int({ min: 1, max: 100, default: 3 }),
  PRUNE_INTERVAL_MS: env.int({ min: 100, max: 24 * 3600 * 1000, default: 5 * 60 * 1000 }),
  // How often the outbox relay re-sends DownloadRecorded events the first send missed.
  OUTBOX_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 5_000 }),
  // Proxies (ingress) whose X-Forwarded-For is believed for the downloader's address.
  TRUSTED_PROXIES: env.list({ default: '', expected: 'comma-separated IP addresses or CIDR blocks (may be empty)' }),
};

export type DownloadsConfig = ConfigOf<typeof downloadsEnv>;

/** Filled in with APP_ENV=development only (`make up` works without a secrets file); refused in production. */
export const DEVELOPMENT_VALUES = {
  DOWNLOAD_LINK_SECRET: 'dev-only-download-link-secret-not-for-production',
} as const;

export function loadDownloadsConfig(source: NodeJS.ProcessEnv = process.env): DownloadsConfig {
  const config = loadConfig(downloadsEnv, withDevelopmentValues(source, DEVELOPMENT_VALUES));
  const problems: string[] = grpcTransportProblems(config, source);
  problems.push(
    ...weakSecretProblems(config, {
      names: ['DOWNLOAD_LINK_SECRET'],
      developmentValues: [DEVELOPMENT_VALUES.DOWNLOAD_LINK_SECRET],
      production: isProductionEnv(source),
    }),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
