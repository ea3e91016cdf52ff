import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
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
  } finally {
    await admin.disconnect();
  }
}
