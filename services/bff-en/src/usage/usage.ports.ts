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
 * What the ledger needs of a producer: send one batch of events that are already encoded (they
 * were encoded once, for the journal) and resolve once Kafka acknowledged every one (acks=all).
 * `frames` holds each UsageEvent as (u32 LE length, bytes), back to back (UsageEventFrames);
 * usageRecordBatches() turns them into record batches with their keys and CloudEvents headers.
 * The bytes are lent: the ledger reuses its batch buffer once the batch is acknowledged, so a
 * sink that may read them after its promise settled (kafkajs retrying after a send timed out)
 * works on a copy of its own, as UsageKafkaWorkerSink does. Unit tests pass a fake.
 */
export interface UsageEventSink {
  sendEvents(topic: string, eventType: string, frames: Uint8Array): Promise<void>;
}
