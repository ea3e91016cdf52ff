import type { Kafka } from 'kafkajs';
import { retry } from '../lifecycle/retry.js';
import { isRetriableKafkaError } from './topic-admin.js';

export interface PartitionEnds {
  partition: number;
  /** The next offset to be written. */
  high: string;
  /** The first offset still held. */
  low: string;
}

/**
 * The topic's log ends. Right after a broker (re)start or a topic's creation, the metadata can name
 * a leader that does not serve the partition yet (NOT_LEADER_OR_FOLLOWER), and kafkajs' admin
 * retries such a ListOffsets with the metadata it already has: each attempt here takes a new admin
 * client, so fresh metadata, for up to ~30 s.
 */
export async function topicEndOffsets(kafka: Kafka, topic: string): Promise<PartitionEnds[]> {
  return retry(
    async () => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        return await admin.fetchTopicOffsets(topic);
      } finally {
        await admin.disconnect();
      }
    },
    { attempts: 12, initialDelayMs: 250, maxDelayMs: 4_000, retryable: isRetriableKafkaError },
  );
}
