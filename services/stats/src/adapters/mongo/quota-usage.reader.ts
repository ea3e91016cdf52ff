import type { Connection } from 'mongoose';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type { QuotaUsageRow, QuotaUsageSource } from '../../reconcile/quota-reconciler.js';

interface UsageDayDoc {
  accountId: string;
  apiKeyId: string;
  periodStart: Date;
  c?: { lookups?: number };
}

/**
 * PUBLIC_API lookups per (account, key, day) from the live usage rollups' day documents (one per
 * partition: summed here). The collection name is asked per call: a replay may have swapped it.
 */
export class MongoQuotaUsageReader implements QuotaUsageSource {
  constructor(
    private readonly connection: Connection,
    private readonly usageCollection: () => string,
  ) {}

  async publicApiLookupsByDay(query: { from: Date; to: Date; accountId?: string }): Promise<QuotaUsageRow[]> {
    const filter: Record<string, unknown> = {
      g: 'd',
      channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
      periodStart: { $gte: query.from, $lt: query.to },
    };
    if (query.accountId !== undefined) filter['accountId'] = query.accountId;
    const cursor = this.connection
      .collection<UsageDayDoc>(this.usageCollection())
      .find(filter, { projection: { _id: 0, accountId: 1, apiKeyId: 1, periodStart: 1, 'c.lookups': 1 } });
    const rows = new Map<string, QuotaUsageRow>();
    for await (const doc of cursor) {
      const lookups = doc.c?.lookups ?? 0;
      const id = `${doc.accountId}|${doc.apiKeyId}|${doc.periodStart.toISOString()}`;
      const row = rows.get(id);
      if (row) row.lookups += lookups;
      else rows.set(id, { accountId: doc.accountId, apiKeyId: doc.apiKeyId, day: doc.periodStart, lookups });
    }
    return [...rows.values()];
  }
}
