/** What the worker needs to build its Kafka client and logger (structured-cloned at start). */
export interface UsageKafkaWorkerData {
  brokers: readonly string[];
  clientId: string;
  logLevel: string;
  sendTimeoutMs?: number;
  /** The worker thread's nice value (lowerThreadPriority); 0 or absent: left as it is. */
  nice?: number;
}

/** `frames`: the ledger's batch, each encoded UsageEvent as (u32 LE length, bytes) (UsageEventFrames). */
export type ToUsageKafkaWorker =
  { type: 'send'; id: number; topic: string; eventType: string; frames: Uint8Array } | { type: 'close' };

export type FromUsageKafkaWorker =
  { type: 'ready' } | { type: 'sent'; id: number } | { type: 'failed'; id: number; message: string };
