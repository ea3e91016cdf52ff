import { TurnBatcher } from '@ipdata/common';
import type { BatchLookupItem } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupEngine } from './lookup.ports.js';

/**
 * Single-address lookups from many concurrent requests, sent as a few BatchLookupCompact calls
 * (common's TurnBatcher): every address asked for during one event-loop turn joins one call of up
 * to 1,000 (the engine's batch limit), one call in flight: addresses asked for meanwhile go
 * together in the next (measured lower p99 than 4 in flight at the same throughput: app.ts, quota).
 */
export class LookupBatcher {
  private readonly batcher: TurnBatcher<string, BatchLookupItem>;

  constructor(engine: LookupEngine) {
    this.batcher = new TurnBatcher((ips) => engine.coalescedLookup(ips), { maxBatch: 1_000, maxInFlight: 1, maxQueue: 50_000 });
  }

  /** The engine's answer for one canonical address. */
  lookup(ip: string): Promise<BatchLookupItem> {
    return this.batcher.submit(ip);
  }

  /** Engine calls made so far. */
  get calls(): number {
    return this.batcher.calls;
  }
}
