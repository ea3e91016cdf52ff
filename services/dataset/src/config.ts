import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, kafkaEnv, loadConfig, serviceEnv, type ConfigOf } from '@ipdata/common';

/** services/dataset (this file is src/config.ts or dist/config.js). */
export const SERVICE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_DIR = resolve(SERVICE_DIR, '../..');
/** Our own rule files: hosting ASNs, EU member states. */
export const DATA_DIR = join(SERVICE_DIR, 'data');

export const configSchema = {
  LOG_LEVEL: serviceEnv.LOG_LEVEL,
  /** Root of the dataset versions: <DATASETS_DIR>/<version>/ and <DATASETS_DIR>/current. */
  DATASETS_DIR: env.string({ default: join(REPO_DIR, 'var/datasets'), expected: 'a folder path' }),
  /** Folder of optional tor-/vpn-/proxy-/relay-*.csv range lists (may be empty). */
  PRIVACY_LISTS_DIR: env.string({ default: join(DATA_DIR, 'privacy-lists'), expected: 'a folder path' }),
  /** Reproducible builds: builtAt in seconds since the epoch; -1 (unset) = the newest source's date. */
  SOURCE_DATE_EPOCH: env.int({ min: -1, default: -1 }),
  /** Only used with --publish. */
  KAFKA_BROKERS: kafkaEnv.KAFKA_BROKERS,
  KAFKA_CLIENT_ID: env.string({ default: 'dataset', expected: 'a Kafka client id' }),
};

export type DatasetConfig = ConfigOf<typeof configSchema>;

export function loadDatasetConfig(source: NodeJS.ProcessEnv = process.env): DatasetConfig {
  return loadConfig(configSchema, source);
}
