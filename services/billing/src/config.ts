import { fileURLToPath } from 'node:url';
import { env, kafkaEnv, loadConfig, mongoEnv, serviceEnv, type ConfigOf } from '@ipdata/common';

/** config/plans.yaml beside src/ and dist/ alike. */
export const DEFAULT_CATALOGUE_FILE = fileURLToPath(new URL('../config/plans.yaml', import.meta.url));

/** Every variable billing reads (README.md lists them with their meaning). */
export const billingEnv = {
  ...serviceEnv,
  HEALTH_PORT: env.port(9103),
  GRPC_PORT: env.port(50053),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'billing', expected: 'a Kafka client id' }),
  KAFKA_GROUP_ID: env.string({ default: 'billing', expected: 'a Kafka consumer group id' }),
  ...mongoEnv,
  PLAN_CATALOGUE_FILE: env.string({ default: DEFAULT_CATALOGUE_FILE, expected: 'a path to the plan catalogue YAML' }),
  PAYMENT_PROVIDER: env.oneOf(['sandbox'], 'sandbox'),
  WEBHOOK_PORT: env.port(9123),
  PAYMENT_WEBHOOK_URL: env.url(['http', 'https'], 'http://127.0.0.1:9123/webhooks/payments/sandbox'),
  // No default: a known secret would let anyone forge payment callbacks. `make up` (APP_ENV=development) gets a dev value below.
  PAYMENT_SANDBOX_SECRET: env.secret(env.string({ expected: 'the sandbox HMAC secret' })),
  PAYMENT_CALLBACK_WINDOW_SECONDS: env.int({ min: 10, max: 3600, default: 300 }),
  SANDBOX_CHECKOUT_PORT: env.port(9113),
  SANDBOX_CHECKOUT_PUBLIC_URL: env.url(['http', 'https'], 'http://127.0.0.1:9113'),
  ORDER_TTL_MINUTES: env.int({ min: 1, max: 7 * 24 * 60, default: 30 }),
  SWEEP_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 60_000 }),
};

export type BillingConfig = ConfigOf<typeof billingEnv>;

const DEV_SANDBOX_SECRET = 'sandbox-dev-secret';

export function loadBillingConfig(source: NodeJS.ProcessEnv = process.env): BillingConfig {
  const development = source['APP_ENV'] === 'development';
  return loadConfig(billingEnv, development ? { PAYMENT_SANDBOX_SECRET: DEV_SANDBOX_SECRET, ...dropEmpty(source) } : source);
}

function dropEmpty(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''));
}
