import type { EventMeta } from '@ipdata/proto/events/v1/envelope';

/** The part of a ts-proto generated message codec the Kafka helpers need. */
export interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}

/** Every event carries EventMeta as field 1 (proto/ipdata/events/v1/envelope.proto). */
export interface EventWithMeta {
  meta?: EventMeta | undefined;
}

/** One row of the topic catalogue: what flows on a topic, who writes it and who reads it. */
export interface TopicDefinition<T extends EventWithMeta = EventWithMeta> {
  readonly name: string;
  /** Fully qualified protobuf message name; also the CloudEvents `ce_type`. */
  readonly eventType: string;
  readonly codec: EventCodec<T>;
  readonly partitions: number;
  readonly retentionMs: number;
  /** What the record key is (the partitioning entity). */
  readonly key: string;
  readonly producers: readonly string[];
  readonly consumers: readonly string[];
  readonly description: string;
}

export const DLQ_SUFFIX = '.dlq';
export const DLQ_PARTITIONS = 1;
export const DLQ_RETENTION_MS = 30 * 24 * 3600 * 1000;

export function dlqTopicName(topic: string): string {
  return `${topic}${DLQ_SUFFIX}`;
}

export function defineTopic<T extends EventWithMeta>(definition: TopicDefinition<T>): TopicDefinition<T> {
  return Object.freeze(definition);
}
