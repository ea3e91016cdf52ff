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
  // The sandbox is no real provider; production deployments still set their own value.
  PAYMENT_SANDBOX_SECRET: env.secret(env.string({ default: 'sandbox-dev-secret', expected: 'the sandbox HMAC secret' })),
  PAYMENT_CALLBACK_WINDOW_SECONDS: env.int({ min: 10, max: 3600, default: 300 }),
  SANDBOX_CHECKOUT_PORT: env.port(9113),
  SANDBOX_CHECKOUT_PUBLIC_URL: env.url(['http', 'https'], 'http://127.0.0.1:9113'),
  ORDER_TTL_MINUTES: env.int({ min: 1, max: 7 * 24 * 60, default: 30 }),
  SWEEP_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 60_000 }),
};

export type BillingConfig = ConfigOf<typeof billingEnv>;

export function loadBillingConfig(source: NodeJS.ProcessEnv = process.env): BillingConfig {
  return loadConfig(billingEnv, source);
}
