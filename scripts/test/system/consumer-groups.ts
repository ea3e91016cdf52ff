/**
 * The system's consumer groups (and those of in-process services a test harness starts) start at
 * the end of every topic. The integration files before it
 * leave thousands of events on the shared broker (their accounts, the FREE plans billing grants
 * each of them, 52,500 ledger events of the fault test, its rollups): a fresh group reads its
 * topics from the beginning, and that backlog kept auth from seeing a new account's plan for over
 * 90 s in CI (two red runs). Committing the log end before the services start skips the backlog
 * without the race of a group that starts at "latest" (an event sent before its first fetch would
 * be lost): everything sent after this call is read.
 */
import type { Kafka } from 'kafkajs';
import {
  TOPIC_CATALOGUE,
  createKafka,
  createLogger,
  dlqTopicName,
  ensureTopics,
  topicEndOffsets,
  topicSpecs,
} from '@ipdata/common';

const JOIN_TIMEOUT_MS = 30_000;

export async function startGroupsAtLogEnd(brokers: string, groups: readonly string[]): Promise<void> {
  // kafkajs logs every retried "not the leader" of a just-created topic as an error: only fatal.
  const logger = createLogger({ service: 'test-system', level: 'fatal' });
  const kafka = createKafka({ brokers: brokers.split(','), clientId: 'test-system-offsets' }, logger);
  const topics = TOPIC_CATALOGUE.flatMap((topic) => [topic.name, dlqTopicName(topic.name)]);
  await ensureTopics(kafka, topicSpecs(TOPIC_CATALOGUE), logger);
  const ends = await logEnds(kafka, topics);
  // kafkajs' admin.setOffsets joins the group once per topic; one member per group commits all.
  await Promise.all(groups.map((groupId) => commitAsMember(kafka, groupId, topics, ends)));
}

type TopicEnds = { topic: string; partition: number; offset: string }[];

async function logEnds(kafka: Kafka, topics: readonly string[]): Promise<TopicEnds> {
  const ends = await Promise.all(
    topics.map(async (topic) =>
      (await topicEndOffsets(kafka, topic)).map(({ partition, high }) => ({ topic, partition, offset: high })),
    ),
  );
  return ends.flat();
}

async function commitAsMember(kafka: Kafka, groupId: string, topics: readonly string[], ends: TopicEnds): Promise<void> {
  // A short fetch wait: disconnect waits for the fetch in flight (kafkajs' default long poll is 5 s).
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, maxWaitTimeInMs: 50 });
  await consumer.connect();
  try {
    let timer: NodeJS.Timeout | undefined;
    const joined = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => resolve());
      timer = setTimeout(
        () => reject(new Error(`test system: group ${groupId} not joined in ${JOIN_TIMEOUT_MS} ms`)),
        JOIN_TIMEOUT_MS,
      );
    });
    await consumer.subscribe({ topics: [...topics], fromBeginning: false });
    // Nothing is handled and nothing resolved: the only commit is the one below.
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    await joined.finally(() => clearTimeout(timer));
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}
