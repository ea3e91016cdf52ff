import {
  ConfigError,
  env,
  grpcServerEnv,
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

/**
 * Every variable the auth service reads (README "Configuration"). Secrets have no default:
 * outside APP_ENV=development a missing secret stops the start. In development obviously fake
 * dev values are filled in (withDevelopmentValues) so `make up` works without a secrets file.
 */
// Placeholder so the log gateway needs no URL; the http gateway refuses to start with it.
const NO_SMS_URL = 'http://sms-gateway-url.invalid/';

export const authEnvSchema = {
  ...serviceEnv,
  ...kafkaEnv,
  ...redisEnv,
  HEALTH_PORT: env.port(9102),
  GRPC_PORT: env.port(50052),
  ...grpcServerEnv('auth'),
  KAFKA_CLIENT_ID: env.string({ default: 'auth', expected: 'a Kafka client id' }),
  // The subscription consumer's group; the contact consumer's is `<id>.contact`.
  KAFKA_GROUP_ID: env.string({ default: 'auth', expected: 'a Kafka consumer group id' }),
  MONGO_URL: env.secret(env.url(['mongodb', 'mongodb+srv'], 'mongodb://127.0.0.1:27017/ipdata_auth')),
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  NODE_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  SMS_GATEWAY: env.oneOf(['log', 'http'], 'http'),
  SMS_GATEWAY_URL: env.url(['http', 'https'], NO_SMS_URL),
  SMS_GATEWAY_SECRET: env.secret(env.string({ expected: 'the HMAC secret shared with the SMS provider' })),
  SMS_CODE_SECRET: env.secret(env.string({ expected: 'a secret of at least 32 characters keying the stored SMS code hashes' })),
  SMS_GATEWAY_TEMPLATE: env.string({ default: 'ipdata_verification_code' }),
  SMS_PER_IP_PER_HOUR: env.int({ min: 1, max: 100_000, default: 20 }),
  // How long a phone waits before another code is sent (any purpose); tests shorten it.
  SMS_RESEND_SECONDS: env.int({ min: 1, max: 3_600, default: 60 }),
  SMTP_URL: env.secret(env.url(['smtp', 'smtps'], 'smtp://127.0.0.1:2525')),
  MAIL_FROM: env.string({ default: 'IP Data <no-reply@ipdata.example>' }),
  EMAIL_LINK_SECRET: env.secret(env.string({ expected: 'a secret of at least 32 characters for signing email links' })),
  PUBLIC_BASE_URL: env.url(['http', 'https'], 'http://127.0.0.1:8082'),
  MAIL_PER_ADDRESS_PER_HOUR: env.int({ min: 1, max: 1_000, default: 5 }),
  // OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1 (128 MiB per hash).
  SCRYPT_N: env.int({ min: 2, max: 2 ** 20, default: 2 ** 17 }),
  SCRYPT_R: env.int({ min: 1, max: 32, default: 8 }),
  SCRYPT_P: env.int({ min: 1, max: 16, default: 1 }),
  SCRYPT_KEYLEN: env.int({ min: 16, max: 128, default: 64 }),
  // Hashes at once per process (each holds 128·N·r bytes) and how many more may wait for a turn.
  SCRYPT_MAX_CONCURRENT: env.int({ min: 1, max: 64, default: 4 }),
  SCRYPT_MAX_QUEUE: env.int({ min: 0, max: 10_000, default: 32 }),
  LOGINS_PER_IP_PER_15_MIN: env.int({ min: 1, max: 100_000, default: 100 }),
  SIGNUPS_PER_IP_PER_HOUR: env.int({ min: 1, max: 100_000, default: 20 }),
  RESETS_PER_IP_PER_HOUR: env.int({ min: 1, max: 100_000, default: 20 }),
  SESSION_IDLE_TIMEOUT_SECONDS: env.int({ min: 60, max: 30 * 24 * 3600, default: 24 * 3600 }),
  PENDING_SIGNUP_SWEEP_INTERVAL_SECONDS: env.int({ min: 10, max: 24 * 3600, default: 3600 }),
  MAIL_RELAY_INTERVAL_SECONDS: env.int({ min: 1, max: 3600, default: 5 }),
  // Only with APP_ENV=test: set by the integration-test harness to allow the log gateway and cheap scrypt.
  AUTH_TEST_HARNESS: env.flag(false),
  SESSION_CACHE_MAX_TTL_SECONDS: env.int({ min: 1, max: 30 * 24 * 3600, default: 3600 }),
  API_KEY_CACHE_TTL_SECONDS: env.int({ min: 1, max: 24 * 3600, default: 300 }),
  SESSION_SWEEP_INTERVAL_SECONDS: env.int({ min: 10, max: 24 * 3600, default: 3600 }),
};

export type AuthConfig = ConfigOf<typeof authEnvSchema>;

const DEVELOPMENT_VALUES = {
  SMS_GATEWAY_SECRET: 'dev-only-sms-gateway-secret-not-for-production',
  EMAIL_LINK_SECRET: 'dev-only-email-link-secret-not-for-production-000',
  SMS_CODE_SECRET: 'dev-only-sms-code-secret-not-for-production-0000',
} as const;

const OWASP_SCRYPT = { N: 2 ** 17, r: 8 } as const;

/**
 * The integration-test harness may use the log gateway and cheap scrypt: only with APP_ENV=test
 * AND AUTH_TEST_HARNESS=true AND NODE_ENV not production. APP_ENV=test alone relaxes nothing, so
 * a deployment mislabelled "test" still gets production-strength hashing and a real SMS gateway.
 */
export function isTestHarness(config: AuthConfig, source: NodeJS.ProcessEnv): boolean {
  return config.APP_ENV === 'test' && config.AUTH_TEST_HARNESS && source['NODE_ENV'] !== 'production';
}

/**
 * Parses the environment once. Beyond per-variable checks it refuses combinations that would be
 * unsafe outside development or the test harness: the log SMS gateway (it prints codes), scrypt
 * below OWASP's parameters, short secrets (everywhere) and development secrets (in production).
 */
export function loadAuthConfig(source: NodeJS.ProcessEnv = process.env): AuthConfig {
  const config = loadConfig(authEnvSchema, withDevelopmentValues(source, DEVELOPMENT_VALUES));
  const problems: string[] = grpcTransportProblems(config, source);
  const production = isProductionEnv(source);
  const testHarness = isTestHarness(config, source);
  const development = source['APP_ENV'] === 'development' && !production;
  if (config.SMS_GATEWAY === 'log' && !development && !testHarness) {
    problems.push('SMS_GATEWAY: "log" prints codes to the log; allowed only with APP_ENV=development or in the test harness');
  }
  if (config.SMS_GATEWAY === 'http' && config.SMS_GATEWAY_URL === NO_SMS_URL) {
    problems.push('SMS_GATEWAY_URL: missing, expected the provider URL (required with SMS_GATEWAY=http)');
  }
  problems.push(
    ...weakSecretProblems(config, {
      names: ['EMAIL_LINK_SECRET', 'SMS_GATEWAY_SECRET', 'SMS_CODE_SECRET'],
      developmentValues: Object.values(DEVELOPMENT_VALUES),
      production,
    }),
  );
  if (!testHarness && (config.SCRYPT_N < OWASP_SCRYPT.N || config.SCRYPT_R < OWASP_SCRYPT.r)) {
    problems.push(
      `SCRYPT_N/SCRYPT_R: expected at least N=${OWASP_SCRYPT.N}, r=${OWASP_SCRYPT.r} (lower only in the test harness)`,
    );
  }
  if ((config.SCRYPT_N & (config.SCRYPT_N - 1)) !== 0) problems.push('SCRYPT_N: expected a power of two');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
