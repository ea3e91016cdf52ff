/** One record for usage.lookup.v1 as Kafka takes it: the value is the encoded UsageEvent. */
export interface UsageKafkaRecord {
  key: string;
  value: Buffer;
  /** CloudEvents binary-mode headers (common's cloudEventHeaders). */
  headers: Record<string, string>;
  /** Milliseconds since the epoch: when the request was accepted. */
  timestamp: string;
}

/**
 * One record for usage.lookup.v1 already written from its key on (key, value, headers, as
 * kafkajs writes a UsageKafkaRecord), which kafkajs sends as it is (patches/kafkajs+2.2.4.patch).
 * `key` (for the partitioner), `value` and `timestamp` are views of the same event.
 */
export interface UsageKafkaMessage {
  key: Buffer;
  value: Buffer;
  timestamp: string;
  recordTail: Buffer;
}

/**
 * What the ledger needs of a producer: send one batch of events that are already encoded (they
 * were encoded once, for the journal) and resolve once Kafka acknowledged every one (acks=all).
 * `frames` holds each UsageEvent as (u32 LE length, bytes), back to back (UsageEventFrames);
 * usageKafkaMessages() turns them into records with their keys and CloudEvents headers. Unit
 * tests pass a fake.
 */
export interface UsageEventSink {
  sendEvents(topic: string, eventType: string, frames: Uint8Array): Promise<void>;
}
