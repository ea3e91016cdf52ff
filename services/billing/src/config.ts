import { fileURLToPath } from 'node:url';
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
import { parseOriginList } from './payments/return-url.js';

/** config/plans.yaml beside src/ and dist/ alike. */
export const DEFAULT_CATALOGUE_FILE = fileURLToPath(new URL('../config/plans.yaml', import.meta.url));

const INTERFACE = 'an interface address (127.0.0.1, 0.0.0.0, ::)';

/** Every variable billing reads (README.md lists them with their meaning). */
export const billingEnv = {
  ...serviceEnv,
  // Unset counts as production: a forgotten APP_ENV must not open the sandbox (free paid plans).
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  HEALTH_PORT: env.port(9103),
  GRPC_PORT: env.port(50053),
  ...grpcServerEnv('billing'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'billing', expected: 'a Kafka client id' }),
  KAFKA_GROUP_ID: env.string({ default: 'billing', expected: 'a Kafka consumer group id' }),
  ...mongoEnv,
  PLAN_CATALOGUE_FILE: env.string({ default: DEFAULT_CATALOGUE_FILE, expected: 'a path to the plan catalogue YAML' }),
  PAYMENT_PROVIDER: env.oneOf(['sandbox'], 'sandbox'),
  // Loopback for the local stack; in production an ingress (TLS, provider IP allow-list) forwards to it.
  WEBHOOK_HOST: env.string({ default: '127.0.0.1', expected: INTERFACE }),
  WEBHOOK_PORT: env.port(9123),
  PAYMENT_WEBHOOK_URL: env.url(['http', 'https'], 'http://127.0.0.1:9123/webhooks/payments/sandbox'),
  // No default: a known secret would let anyone forge payment callbacks. `make up` (APP_ENV=development) gets a dev value below.
  PAYMENT_SANDBOX_SECRET: env.secret(env.string({ expected: 'the sandbox HMAC secret (at least 32 characters)' })),
  PAYMENT_CALLBACK_WINDOW_SECONDS: env.int({ min: 10, max: 3600, default: 300 }),
  SANDBOX_CHECKOUT_HOST: env.string({ default: '127.0.0.1', expected: INTERFACE }),
  SANDBOX_CHECKOUT_PORT: env.port(9113),
  SANDBOX_CHECKOUT_PUBLIC_URL: env.url(['http', 'https'], 'http://127.0.0.1:9113'),
  // No default outside development: the allow-list names the real sites.
  CHECKOUT_RETURN_ORIGINS: env.string({ expected: 'comma-separated site origins, e.g. https://ipdata.example' }),
  ORDER_TTL_MINUTES: env.int({ min: 1, max: 7 * 24 * 60, default: 30 }),
  SWEEP_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 60_000 }),
};

export type BillingConfig = ConfigOf<typeof billingEnv>;

/** Filled in with APP_ENV=development only (`make up` works without a secrets file); refused in production. */
export const DEVELOPMENT_VALUES = {
  PAYMENT_SANDBOX_SECRET: 'dev-only-sandbox-secret-not-for-production',
  CHECKOUT_RETURN_ORIGINS: 'http://127.0.0.1:8081,http://127.0.0.1:8082',
} as const;

/** Development secrets of earlier releases: a copied one is as public as the current one. */
const RETIRED_DEVELOPMENT_SECRETS = ['sandbox-dev-secret'];

/** Keys that sign or verify something: at least 32 characters, never a development value in production. */
const SIGNING_SECRETS = ['PAYMENT_SANDBOX_SECRET'];

/**
 * Parses the environment once. Beyond per-variable checks it refuses what would be unsafe in
 * production (APP_ENV=production, the default, or NODE_ENV=production set explicitly): the
 * sandbox provider (its checkout "pays" without charging), development secrets, plain-http
 * return origins. Short secrets are refused everywhere. Every problem is listed at once.
 */
export function loadBillingConfig(source: NodeJS.ProcessEnv = process.env): BillingConfig {
  const config = loadConfig(billingEnv, withDevelopmentValues(source, DEVELOPMENT_VALUES));
  const problems: string[] = grpcTransportProblems(config, source);
  const production = isProductionEnv(source);

  if (production && config.PAYMENT_PROVIDER === 'sandbox') {
    problems.push('PAYMENT_PROVIDER: "sandbox" activates plans without charging and is refused in production (APP_ENV/NODE_ENV)');
  }
  problems.push(
    ...weakSecretProblems(config, {
      names: SIGNING_SECRETS,
      developmentValues: [DEVELOPMENT_VALUES.PAYMENT_SANDBOX_SECRET, ...RETIRED_DEVELOPMENT_SECRETS],
      production,
    }),
  );
  const origins = parseOriginList(config.CHECKOUT_RETURN_ORIGINS);
  for (const problem of origins.problems) problems.push(`CHECKOUT_RETURN_ORIGINS: ${problem}`);
  if (production) {
    for (const origin of origins.origins.filter((candidate) => !candidate.startsWith('https://'))) {
      problems.push(`CHECKOUT_RETURN_ORIGINS: "${origin}" is not https, refused in production`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
