import type { Consumer, Kafka } from 'kafkajs';
import { pino } from 'pino';
import { headersToStrings } from '../kafka/cloudevents.js';
import { createKafka } from '../kafka/kafka-client.js';
import { isRetriableKafkaError } from '../kafka/topic-admin.js';
import { retry } from '../lifecycle/retry.js';
import { topicEndOffsets } from '../kafka/topic-offsets.js';
import type { EventCodec, EventWithMeta, TopicDefinition } from '../kafka/topic-definition.js';
import { stackAddresses, uniqueName, waitFor } from './stack.js';

export interface RecordedEvent<T> {
  event: T;
  key: string | null;
  /** Header values as strings (CloudEvents `ce_*`, trace context). */
  headers: Record<string, string>;
  partition: number;
  offset: string;
}

/** What the recorder needs of a topic: its name and codec (a TopicDefinition, or `rawTopic(name)`). */
export type RecordableTopic<T> = Pick<TopicDefinition<T & EventWithMeta>, 'name'> & { codec: Pick<EventCodec<T>, 'decode'> };

/** A record kept as bytes (DLQ records, undecodable values). */
export interface RawValue extends EventWithMeta {
  value: Buffer;
}

/** A topic read without decoding: `event.value` is the record value as it is. */
export function rawTopic(name: string): RecordableTopic<RawValue> {
  return { name, codec: { decode: (input) => ({ value: Buffer.from(input) }) } };
}

export interface TopicRecorderOptions {
  /** Default: a client for the test stack's brokers. */
  kafka?: Kafka;
  /** Default true: also the records written before the recorder joined. */
  fromBeginning?: boolean;
  /**
   * Only what is written after start() returns: the log end is read before joining and the
   * recorder seeks there, so a topic's backlog (52,500 ledger events of the fault test on
   * usage.lookup.v1) is skipped without the race of a group starting at "latest".
   */
  fromLogEnd?: boolean;
}

/**
 * Records what a topic carries, decoded with the topic definition's codec, for integration
 * tests: a consumer in a group of its own (so it sees every record and takes none from the
 * service's consumers), reading from the beginning by default so nothing sent before it joined
 * is missed. Match your events by id or key: topics are shared across test files.
 */
export class TopicRecorder<T extends EventWithMeta> {
  readonly records: RecordedEvent<T>[] = [];

  private constructor(
    readonly topic: RecordableTopic<T>,
    private readonly consumer: Consumer,
  ) {}

  static async start<T extends EventWithMeta>(
    topic: RecordableTopic<T>,
    options: TopicRecorderOptions = {},
  ): Promise<TopicRecorder<T>> {
    const kafka =
      options.kafka ??
      createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: 'topic-recorder' }, pino({ level: 'silent' }));
    const consumer = kafka.consumer({ groupId: uniqueName(`recorder-${topic.name}`) });
    const recorder = new TopicRecorder(topic, consumer);
    await consumer.connect();
    try {
      const ends = options.fromLogEnd ? await topicEndOffsets(kafka, topic.name) : [];
      // A topic a service created a moment ago may not be in the broker's metadata yet.
      await retry(() => consumer.subscribe({ topics: [topic.name], fromBeginning: options.fromBeginning ?? true }), {
        attempts: 8,
        initialDelayMs: 200,
        maxDelayMs: 2_000,
        retryable: isRetriableKafkaError,
      });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          if (message.value === null) return;
          recorder.records.push({
            event: topic.codec.decode(message.value),
            key: message.key?.toString() ?? null,
            headers: headersToStrings(message.headers),
            partition,
            offset: message.offset,
          });
        },
      });
      // kafkajs keeps a seek until the partition is assigned, then fetches from there.
      for (const { partition, high } of ends) consumer.seek({ topic: topic.name, partition, offset: high });
    } catch (error) {
      await consumer.disconnect();
      throw error;
    }
    return recorder;
  }

  /** The decoded events, in arrival order. */
  get events(): T[] {
    return this.records.map((record) => record.event);
  }

  /** Waits until at least `count` records arrived and returns the first `count`. */
  async waitForCount(count: number, options: { timeoutMs?: number } = {}): Promise<RecordedEvent<T>[]> {
    await waitFor(() => this.records.length >= count, {
      timeoutMs: options.timeoutMs ?? 30_000,
      what: `${count} records on ${this.topic.name}`,
    });
    return this.records.slice(0, count);
  }

  /** The first event matching, waiting for it to arrive. */
  async waitFor(predicate: (event: T) => boolean, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
    return (await this.waitForRecord((record) => predicate(record.event), options)).event;
  }

  /** The first record (event, key, headers) matching, waiting for it to arrive. */
  waitForRecord(
    predicate: (record: RecordedEvent<T>) => boolean,
    options: { timeoutMs?: number; what?: string } = {},
  ): Promise<RecordedEvent<T>> {
    return waitFor(() => this.records.find(predicate), {
      timeoutMs: options.timeoutMs ?? 30_000,
      what: options.what ?? `an event on ${this.topic.name}`,
    });
  }

  /** Events with this id (EventMeta.id): a test of at-least-once delivery counts duplicates with it. */
  withId(id: string): RecordedEvent<T>[] {
    return this.records.filter((record) => record.event.meta?.id === id);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
