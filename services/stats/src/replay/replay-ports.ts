import type { ConsumedBatch } from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { RollupCollections } from '../counters/rollup-generation.js';

/** Ledger offsets per partition: the next record to read (start) or the first not to read (target). */
export type LedgerOffsets = ReadonlyMap<number, number>;

/** Handles one replayed chunk of one partition; answers how many events it counted (first occurrences). */
export type ReplayBatchHandler = (batch: ConsumedBatch<UsageEvent>) => Promise<number>;

/** A reader of the ledger for one replay, positioned at its start offsets (adapters/kafka/ledger-replay.source.ts). */
export interface ReplayReader {
  /**
   * Hands every record below `targets` (per partition) to the handler, in offset order, and
   * resolves once every partition reached its target. Targets only grow between calls.
   */
  readUpTo(targets: LedgerOffsets): Promise<void>;
  /** Next offset to read per partition. */
  positions(): LedgerOffsets;
  /** Records read so far (handed to the handler or skipped as undecodable). */
  recordsRead(): number;
  close(): Promise<void>;
}

/** Port: the ledger topic (usage.lookup.v1). */
export interface LedgerReplaySource {
  /** The first retained offset of every partition. */
  earliestOffsets(): Promise<Map<number, number>>;
  /** Per partition, the first offset whose record timestamp is ≥ `time` (the end when none is). */
  offsetsAtTime(time: Date): Promise<Map<number, number>>;
  open(replayId: string, start: LedgerOffsets, handler: ReplayBatchHandler): Promise<ReplayReader>;
}

/** Port: the live ledger consumer of this process (common EventConsumer in batch mode + its group's offsets). */
export interface LiveLedger {
  /** Stops the live consumer between rounds; everything it handled is committed when this resolves. */
  pause(): Promise<void>;
  resume(): void;
  /** The live group's committed offsets (partitions without one are absent). */
  committedOffsets(): Promise<Map<number, number>>;
}

/** Port: the rollup collections of the generations (adapters/mongo/rollup-collections.admin.ts). */
export interface RollupCollectionsAdmin {
  /** Drops leftovers of a failed replay with the same names and creates the indexes. */
  prepare(collections: RollupCollections): Promise<void>;
  /** Copies the documents of periods before `before` (hours and days) from one generation to another. */
  copyBefore(from: RollupCollections, to: RollupCollections, before: Date): Promise<number>;
  /**
   * Copies the late-event carries into hours that are still open (`c.cr:<T>`, T ≥ openFrom) of
   * the live hour documents onto the same documents of the new generation (docs/DESIGN: a
   * replay folds without carries, the closer still needs them).
   */
  copyOpenCarries(fromUsage: string, toUsage: string, openFrom: Date): Promise<number>;
  drop(collections: RollupCollections): Promise<void>;
}
