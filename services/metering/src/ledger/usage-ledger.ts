import { TurnBatcher, errorText, type Component, type Logger } from '@ipdata/common';
import { encodeFrames, splitFrames } from './usage-frames.js';
import type { UsageRecord } from './usage-record.js';
import type { UsageEventSink, UsageEventStore } from './usage.ports.js';

export interface UsageLedgerConfig {
  /** Where events wait for the relay (RedisUsageStream). */
  store: UsageEventStore;
  /**
   * Used for a group the store refused (Redis down): sent straight to Kafka and answered once
   * acknowledged. Without it, or when Kafka refuses too, record() rejects and the request fails.
   */
  fallback?: UsageEventSink;
  /** CloudEvents source (`meta.source`), e.g. 'bff-en'. */
  source: string;
  /** Most records per store call (default 2,000: about 250 KB per stream entry). */
  maxBatch?: number;
  /** Store calls in flight at once (default 4). */
  maxInFlight?: number;
  /** Records waiting beyond the calls in flight before record() refuses (default 50,000). */
  maxQueue?: number;
}

export interface UsageLedgerStats {
  /** Records written to the store since start. */
  stored: number;
  /** Records the store refused and Kafka took directly. */
  sentDirect: number;
  /** Records neither took: their requests failed. */
  refused: number;
  lastError: string | undefined;
}

/**
 * The usage ledger's write side (README.md, "No event lost"): record() resolves once the event is
 * in the store (a Redis Stream), so an answered request's event survives the process being killed
 * or scaled away; the relay (usage-relay.ts) moves stored events to Kafka. The records of one
 * event-loop turn share one store call (common's TurnBatcher).
 */
export class UsageLedger implements Component {
  readonly name = 'usage-ledger';
  private readonly batcher: TurnBatcher<UsageRecord, undefined>;
  private readonly counters = { stored: 0, sentDirect: 0, refused: 0 };
  private lastError: string | undefined;
  private lastFailureLogAt = 0;

  constructor(
    private readonly config: UsageLedgerConfig,
    private readonly logger: Logger,
  ) {
    this.batcher = new TurnBatcher((records) => this.write(records), {
      maxBatch: config.maxBatch ?? 2_000,
      maxInFlight: config.maxInFlight ?? 4,
      maxQueue: config.maxQueue ?? 50_000,
    });
  }

  /** Await it before answering: resolved = the event is stored (or on Kafka); rejected = answer an error. */
  record(record: UsageRecord): Promise<undefined> {
    return this.batcher.submit(record);
  }

  stats(): UsageLedgerStats {
    return Object.assign({}, this.counters, { lastError: this.lastError });
  }

  async start(): Promise<void> {}

  /** Writes what was recorded before the shutdown began; requests still running fail their record(). */
  async shutdown(): Promise<void> {
    await this.batcher.drained();
  }

  private async write(records: UsageRecord[]): Promise<undefined[]> {
    const frames = encodeFrames(records, this.config.source);
    try {
      await this.config.store.append(frames);
      this.counters.stored += records.length;
    } catch (storeError) {
      this.noteFailure('usage store refused a group', storeError, records.length);
      if (this.config.fallback === undefined) {
        this.counters.refused += records.length;
        throw storeError;
      }
      try {
        await this.config.fallback.send(splitFrames(frames));
        this.counters.sentDirect += records.length;
      } catch (sinkError) {
        this.counters.refused += records.length;
        this.noteFailure('Kafka refused the group too; its requests fail', sinkError, records.length);
        throw sinkError;
      }
    }
    return new Array<undefined>(records.length).fill(undefined);
  }

  private noteFailure(message: string, error: unknown, events: number): void {
    this.lastError = errorText(error);
    const now = Date.now();
    // One line per 10 s while it lasts; the counters say how many.
    if (now - this.lastFailureLogAt < 10_000) return;
    this.lastFailureLogAt = now;
    this.logger.warn({ error: this.lastError, events, ...this.counters }, message);
  }
}
