import { env } from './env-vars.js';

/**
 * Variables every service reads. A service's own config.ts spreads the groups it needs into
 * its schema, so names and defaults stay the same everywhere (services/README.md, step 4).
 */
export const serviceEnv = {
  LOG_LEVEL: env.oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], 'info'),
  HEALTH_PORT: env.port(),
  // Probes reach a pod on its own address, so all interfaces by default; 127.0.0.1 keeps it local.
  HEALTH_HOST: env.string({ default: '0.0.0.0', expected: 'the interface address to bind /healthz and /readyz on' }),
  SHUTDOWN_TIMEOUT_MS: env.int({ min: 1000, max: 120_000, default: 25_000 }),
};

export const kafkaEnv = {
  KAFKA_BROKERS: env.addressList('127.0.0.1:9092'),
  KAFKA_CLIENT_ID: env.string({ expected: 'a Kafka client id' }),
};

export const mongoEnv = {
  MONGO_URL: env.secret(env.url(['mongodb', 'mongodb+srv'], 'mongodb://127.0.0.1:27017/ipdata')),
};

export const redisEnv = {
  REDIS_URL: env.secret(env.url(['redis', 'rediss'], 'redis://127.0.0.1:6379')),
};
