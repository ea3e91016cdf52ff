import type { BatchLookupItem } from '@ipdata/proto/lookup/v1/lookup';

/** The lookup engine's batch lookup as the batch calls need it (adapters/grpc/batch-lookup.adapter.ts). */
export interface BatchLookupEngine {
  /** Canonical, non-reserved addresses (at most the engine's batch size); one item per address, in order. */
  batchLookup(ips: string[]): Promise<BatchLookupItem[]>;
}

/** Whether an account has an active VIP subscription now (billing); false when billing cannot say. */
export interface VipCheck {
  isVip(accountId: string): Promise<boolean>;
}
