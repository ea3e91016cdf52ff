/**
 * Where the ledger keeps events until the relay has them on Kafka (a Redis Stream in production,
 * adapters/redis/usage-stream.redis.ts). One append is one group of frames (usage-frames.ts).
 */
export interface UsageEventStore {
  /** Resolves once the store holds the group durably enough to answer the requests it stands for. */
  append(frames: Buffer): Promise<void>;
}

/** One stored group as the relay reads it. */
export interface StoredUsageGroup {
  /** The store's id of the group (a stream entry id, `<ms>-<seq>`). */
  id: string;
  frames: Buffer;
}

/**
 * The relay's side of the store: a consumer group shared by every relay, so each group is read
 * by one relay at a time and stays pending until acknowledged; a relay that is gone (killed,
 * scaled away) leaves its pending groups to be claimed by another one after `minIdleMs`.
 */
export interface UsageStreamReader {
  ensureGroup(): Promise<void>;
  /** New groups for `consumer`, or with `pending` its own unacknowledged ones (after a restart). */
  read(consumer: string, options: { count: number; blockMs: number; pending: boolean }): Promise<StoredUsageGroup[]>;
  /** Groups pending with any consumer for longer than `minIdleMs`, now pending with `consumer`. */
  claimStale(consumer: string, minIdleMs: number, count: number): Promise<StoredUsageGroup[]>;
  /** Done with these groups: Kafka has their events. */
  ack(ids: readonly string[]): Promise<void>;
  /**
   * Removes the group's consumers other than `except` that hold nothing pending and were idle for
   * `minIdleMs` (relays scaled away); returns their names.
   */
  pruneConsumers(except: string, minIdleMs: number): Promise<string[]>;
  /** Groups in the store and the time of the oldest (for readiness details and alerts on age). */
  backlog(): Promise<{ groups: number; oldestAt: Date | undefined }>;
}

/**
 * Kafka as the ledger needs it: send encoded UsageEvents and resolve once the broker acknowledged
 * every one (acks=all). The bytes are views the caller keeps alive until the promise settles.
 */
export interface UsageEventSink {
  send(events: readonly Uint8Array[]): Promise<void>;
}
