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
 * What the ledger needs of a producer: send records that are already encoded (they were encoded
 * once, for the journal) and resolve once Kafka acknowledged every one (acks=all). Common's
 * EventProducer fits as it is (`sendRaw`); unit tests pass a fake.
 */
export interface UsageEventSink {
  sendRaw(topic: string, records: UsageKafkaRecord[]): Promise<void>;
}
