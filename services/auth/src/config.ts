import { ConfigError, env, kafkaEnv, loadConfig, redisEnv, serviceEnv, type ConfigOf } from '@ipdata/common';

/**
 * Every variable the auth service reads (README "Configuration"). Secrets have no default:
 * outside APP_ENV=development a missing secret stops the start. In development obviously fake
 * dev values are filled in so `make up` works without a secrets file.
 */
// Placeholder so the log gateway needs no URL; the http gateway refuses to start with it.
const NO_SMS_URL = 'http://sms-gateway-url.invalid/';

export const authEnvSchema = {
  ...serviceEnv,
  ...kafkaEnv,
  ...redisEnv,
  HEALTH_PORT: env.port(9102),
  GRPC_PORT: env.port(50052),
  KAFKA_CLIENT_ID: env.string({ default: 'auth', expected: 'a Kafka client id' }),
  MONGO_URL: env.secret(env.url(['mongodb', 'mongodb+srv'], 'mongodb://127.0.0.1:27017/ipdata_auth')),
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  NODE_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  SMS_GATEWAY: env.oneOf(['log', 'http'], 'http'),
  SMS_GATEWAY_URL: env.url(['http', 'https'], NO_SMS_URL),
  SMS_GATEWAY_SECRET: env.secret(env.string({ expected: 'the HMAC secret shared with the SMS provider' })),
  SMS_GATEWAY_TEMPLATE: env.string({ default: 'ipdata_verification_code' }),
  SMS_PER_IP_PER_HOUR: env.int({ min: 1, max: 100_000, default: 20 }),
  SMTP_URL: env.secret(env.url(['smtp', 'smtps'], 'smtp://127.0.0.1:2525')),
  MAIL_FROM: env.string({ default: 'IP Data <no-reply@ipdata.example>' }),
  EMAIL_LINK_SECRET: env.secret(env.string({ expected: 'a secret of at least 32 characters for signing email links' })),
  PUBLIC_BASE_URL: env.url(['http', 'https'], 'http://127.0.0.1:8082'),
  MAIL_PER_ADDRESS_PER_HOUR: env.int({ min: 1, max: 1_000, default: 5 }),
  SCRYPT_N: env.int({ min: 2, max: 2 ** 20, default: 2 ** 15 }),
  SCRYPT_R: env.int({ min: 1, max: 32, default: 8 }),
  SCRYPT_P: env.int({ min: 1, max: 16, default: 1 }),
  SCRYPT_KEYLEN: env.int({ min: 16, max: 128, default: 64 }),
  SESSION_CACHE_MAX_TTL_SECONDS: env.int({ min: 1, max: 30 * 24 * 3600, default: 3600 }),
  API_KEY_CACHE_TTL_SECONDS: env.int({ min: 1, max: 24 * 3600, default: 300 }),
  SESSION_SWEEP_INTERVAL_SECONDS: env.int({ min: 10, max: 24 * 3600, default: 3600 }),
};

export type AuthConfig = ConfigOf<typeof authEnvSchema>;

const DEV_SECRETS = {
  SMS_GATEWAY_SECRET: 'dev-only-sms-gateway-secret-not-for-production',
  EMAIL_LINK_SECRET: 'dev-only-email-link-secret-not-for-production-000',
} as const;

/**
 * Parses the environment once. Beyond per-variable checks it refuses combinations that would be
 * unsafe in production: the log SMS gateway (it prints codes) and short or dev secrets.
 */
export function loadAuthConfig(source: NodeJS.ProcessEnv = process.env): AuthConfig {
  const development = source['APP_ENV'] === 'development';
  const withDevSecrets = development
    ? {
        ...source,
        SMS_GATEWAY_SECRET: source['SMS_GATEWAY_SECRET'] || DEV_SECRETS.SMS_GATEWAY_SECRET,
        EMAIL_LINK_SECRET: source['EMAIL_LINK_SECRET'] || DEV_SECRETS.EMAIL_LINK_SECRET,
      }
    : source;
  const config = loadConfig(authEnvSchema, withDevSecrets);
  const problems: string[] = [];
  // NODE_ENV counts only when set explicitly: its default must not override APP_ENV=development.
  const production = config.APP_ENV === 'production' || source['NODE_ENV'] === 'production';
  if (production && config.SMS_GATEWAY === 'log') {
    problems.push('SMS_GATEWAY: "log" prints codes to the log and is refused in production (APP_ENV/NODE_ENV)');
  }
  if (config.SMS_GATEWAY === 'http' && config.SMS_GATEWAY_URL === NO_SMS_URL) {
    problems.push('SMS_GATEWAY_URL: missing, expected the provider URL (required with SMS_GATEWAY=http)');
  }
  if (config.EMAIL_LINK_SECRET.length < 32) problems.push('EMAIL_LINK_SECRET: expected at least 32 characters');
  if (
    production &&
    Object.values(DEV_SECRETS).some((dev) => dev === config.EMAIL_LINK_SECRET || dev === config.SMS_GATEWAY_SECRET)
  ) {
    problems.push('EMAIL_LINK_SECRET/SMS_GATEWAY_SECRET: development values are refused in production');
  }
  if (production && config.SCRYPT_N < 2 ** 15) problems.push('SCRYPT_N: expected at least 32768 in production');
  if ((config.SCRYPT_N & (config.SCRYPT_N - 1)) !== 0) problems.push('SCRYPT_N: expected a power of two');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
