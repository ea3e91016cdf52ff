import { TurnBatcher } from '@ipdata/common';
import type { BatchLookupItem } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupEngine } from './lookup.ports.js';

/**
 * Single-address lookups from many concurrent requests, sent as a few BatchLookupCompact calls
 * (common's TurnBatcher): every address asked for during one event-loop turn joins one call of up
 * to 1,000 (the engine's batch limit), with at most 4 calls in flight.
 */
export class LookupBatcher {
  private readonly batcher: TurnBatcher<string, BatchLookupItem>;

  constructor(engine: LookupEngine) {
    this.batcher = new TurnBatcher((ips) => engine.batchLookup(ips), { maxBatch: 1_000, maxInFlight: 4, maxQueue: 50_000 });
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
