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
 * Unit tests pass a fake.
 */
export interface UsageEventSink {
  sendEvents(topic: string, eventType: string, frames: Uint8Array): Promise<void>;
}
