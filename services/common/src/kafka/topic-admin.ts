import type { Admin, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { retry } from '../lifecycle/retry.js';
import { DLQ_PARTITIONS, DLQ_RETENTION_MS, dlqTopicName, type TopicDefinition } from './topic-definition.js';

export interface TopicSpec {
  name: string;
  partitions: number;
  retentionMs: number;
}

/** The topic and its `.dlq` twin, as they must exist on the broker. */
export function topicSpecs(topics: readonly TopicDefinition[]): TopicSpec[] {
  return topics.flatMap((topic) => [
    { name: topic.name, partitions: topic.partitions, retentionMs: topic.retentionMs },
    { name: dlqTopicName(topic.name), partitions: DLQ_PARTITIONS, retentionMs: DLQ_RETENTION_MS },
  ]);
}

/**
 * Creates missing topics with the catalogue's partition counts and grows existing ones that
 * have fewer partitions (Kafka cannot shrink them). Safe to run from every service at start.
 */
export async function ensureTopics(kafka: Kafka, specs: readonly TopicSpec[], logger: Logger): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // A fresh broker answers "does not host this topic-partition" (retriable) for a moment after
    // creating topics: the whole step is repeated from the listing, which is idempotent.
    await retry(() => ensureWith(admin, specs, logger), {
      attempts: 8,
      initialDelayMs: 200,
      maxDelayMs: 2_000,
      retryable: isRetriableKafkaError,
    });
  } finally {
    await admin.disconnect();
  }
}

/** kafkajs marks errors worth another attempt (leader elections, metadata not yet propagated). */
export function isRetriableKafkaError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retriable?: unknown }).retriable === true;
}

async function ensureWith(admin: Admin, specs: readonly TopicSpec[], logger: Logger): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.name));
  if (missing.length > 0) {
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((spec) => ({
        topic: spec.name,
        numPartitions: spec.partitions,
        replicationFactor: -1,
        configEntries: [{ name: 'retention.ms', value: String(spec.retentionMs) }],
      })),
    });
    logger.info({ topics: missing.map((spec) => spec.name) }, 'created Kafka topics');
    // Created is not yet served: until the broker's metadata has them, a consumer's subscribe
    // fails with "does not host this topic-partition". This throws (retriable) until then.
    await admin.fetchTopicMetadata({ topics: missing.map((spec) => spec.name) });
  }
  const present = specs.filter((spec) => existing.has(spec.name));
  if (present.length === 0) return;
  const metadata = await admin.fetchTopicMetadata({ topics: present.map((spec) => spec.name) });
  const grow = present.filter((spec) => {
    const current = metadata.topics.find((topic) => topic.name === spec.name)?.partitions.length ?? 0;
    return current < spec.partitions;
  });
  if (grow.length > 0) {
    await admin.createPartitions({ topicPartitions: grow.map((spec) => ({ topic: spec.name, count: spec.partitions })) });
    logger.info({ topics: grow.map((spec) => spec.name) }, 'increased Kafka topic partitions');
  }
}
