import { hostname } from 'node:os';
import { assertGrpcTransportAllowed, env, grpcServerEnv, kafkaEnv, loadConfig, serviceEnv } from '@ipdata/common';

export const lookupEngineEnv = {
  ...serviceEnv,
  HEALTH_PORT: env.port(9101),
  GRPC_PORT: env.port(50051),
  ...grpcServerEnv('lookup-engine'),
  KAFKA_BROKERS: kafkaEnv.KAFKA_BROKERS,
  KAFKA_CLIENT_ID: env.string({ default: 'lookup-engine' }),
  /** Folder holding dataset versions (`<version>/ipdata.ipdat`) and the `current` pointer. */
  DATASETS_DIR: env.string({ default: 'var/datasets', expected: 'a folder path' }),
  /** Listen for dataset.published events and swap datasets live. */
  DATASET_EVENTS_ENABLED: env.flag(true),
  /** How long a BatchLookupCompactStream stays open before the engine ends it (callers open a new one at once). */
  LOOKUP_STREAM_MAX_AGE_MS: env.int({ min: 100, max: 300_000, default: 5_000 }),
  /** Names this replica's consumer group; every replica needs its own. */
  INSTANCE_ID: env.string({ default: `${hostname()}-${process.pid}` }),
};

export type LookupEngineConfig = ReturnType<typeof loadLookupEngineConfig>;

export function loadLookupEngineConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(lookupEngineEnv, source);
  assertGrpcTransportAllowed(config, source);
  return config;
}
