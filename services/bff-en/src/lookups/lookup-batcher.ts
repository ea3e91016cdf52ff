import type { BatchLookupItem } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupEngine } from './lookup.ports.js';

export interface LookupBatcherOptions {
  /** Most addresses per engine call (the engine's batch limit). */
  maxBatch?: number;
  /** Engine calls in flight at once; more addresses wait for the next free slot. */
  maxInFlight?: number;
}

interface Waiting {
  ip: string;
  resolve: (item: BatchLookupItem) => void;
  reject: (error: unknown) => void;
}

/**
 * Single-address lookups from many concurrent requests, sent as a few BatchLookupCompact calls:
 * every address asked for during one event-loop turn joins one batch (up to `maxBatch`), so a
 * loaded API pays one gRPC round trip per few hundred requests instead of one each. With no load
 * a lookup waits only for the end of the current turn (setImmediate).
 */
export class LookupBatcher {
  private queue: Waiting[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  calls = 0;

  constructor(
    private readonly engine: LookupEngine,
    options: LookupBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1_000;
    this.maxInFlight = options.maxInFlight ?? 4;
  }

  /** The engine's answer for one canonical address. */
  lookup(ip: string): Promise<BatchLookupItem> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ip, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
      this.send(batch);
    }
  };

  private send(batch: Waiting[]): void {
    this.inFlight++;
    this.calls++;
    const ips = batch.map((waiting) => waiting.ip);
    this.engine.batchLookup(ips).then(
      (items) => {
        for (let i = 0; i < batch.length; i++) {
          const item = items[i];
          const waiting = batch[i] as Waiting;
          if (item === undefined) waiting.reject(new Error('lookup engine answered fewer items than asked'));
          else waiting.resolve(item);
        }
        this.done();
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
        this.done();
      },
    );
  }

  private done(): void {
    this.inFlight--;
    // Addresses that queued while every slot was busy go now, as one batch.
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }
}
