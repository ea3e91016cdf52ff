import {
  ConfigError,
  env,
  grpcServerEnv,
  grpcTransportProblems,
  kafkaEnv,
  loadConfig,
  mongoEnv,
  serviceEnv,
  type ConfigOf,
} from '@ipdata/common';
import { ContactsFileError, DEFAULT_CONTACTS_FILE, loadContactsFile } from './contacts/contacts.js';
import { DEFAULT_SEED_FILE, SeedFileError, loadSeedFile } from './seeds/seed-file.js';

/** Every variable content reads (README.md lists them with their meaning). */
export const contentEnv = {
  ...serviceEnv,
  APP_ENV: env.oneOf(['development', 'test', 'production'], 'production'),
  HEALTH_PORT: env.port(9106),
  GRPC_PORT: env.port(50056),
  ...grpcServerEnv('content'),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'content', expected: 'a Kafka client id' }),
  // Prefix of the consumer groups: `<id>.users` (auth.user.v1), `<id>.subscriptions` (billing.subscription.v1).
  KAFKA_GROUP_ID: env.string({ default: 'content', expected: 'a Kafka consumer group id' }),
  KAFKA_SESSION_TIMEOUT_MS: env.int({ min: 6_000, max: 300_000, default: 30_000 }),
  ...mongoEnv,
  // Customer-service contacts (YAML); the shipped file holds marked sample values.
  CONTACTS_FILE: env.string({ default: DEFAULT_CONTACTS_FILE, expected: 'a path to the contacts YAML' }),
  // Sample news and notices upserted at start (JSON).
  SEED_FILE: env.string({ default: DEFAULT_SEED_FILE, expected: 'a path to the seed JSON' }),
  // Positive flag: seeding is on unless an operator turns it off once real content exists.
  SEED_SAMPLES: env.flag(true),
  // How often the outbox relay re-sends FeedbackReceived events the first send missed.
  OUTBOX_INTERVAL_MS: env.int({ min: 100, max: 3_600_000, default: 5_000 }),
};

export type ContentConfig = ConfigOf<typeof contentEnv>;

export function loadContentConfig(source: NodeJS.ProcessEnv = process.env): ContentConfig {
  const config = loadConfig(contentEnv, source);
  const problems = grpcTransportProblems(config, source);
  // The files are checked here too, so a bad one stops the start with every problem listed
  // (loadConfigOrExit prints ConfigErrors without a stack trace); app.ts reads them again.
  problems.push(...fileProblems('CONTACTS_FILE', () => loadContactsFile(config.CONTACTS_FILE)));
  if (config.SEED_SAMPLES) problems.push(...fileProblems('SEED_FILE', () => loadSeedFile(config.SEED_FILE)));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function fileProblems(name: string, load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (error) {
    if (error instanceof ContactsFileError || error instanceof SeedFileError) {
      return error.problems.map((problem) => `${name} (${error.source}): ${problem}`);
    }
    throw error;
  }
}
