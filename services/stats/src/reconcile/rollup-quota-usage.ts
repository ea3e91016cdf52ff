import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type { CounterReader } from '../counters/counter-query.js';
import { USAGE_COUNTERS } from '../usage/usage-counters.js';
import type { QuotaUsageRow, QuotaUsageSource } from './quota-reconciler.js';

/**
 * PUBLIC_API lookups per (account, key, day) from the live usage rollups' day documents (one per
 * partition: summed here), through the same reader the queries use (a replay swap is followed).
 */
export class RollupQuotaUsage implements QuotaUsageSource {
  constructor(private readonly reader: CounterReader) {}

  async publicApiLookupsByDay(query: { from: Date; to: Date; accountId?: string }): Promise<QuotaUsageRow[]> {
    const equals: Record<string, string | number> = { g: 'd', channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API };
    if (query.accountId !== undefined) equals['accountId'] = query.accountId;
    const rows = new Map<string, QuotaUsageRow>();
    for (const doc of await this.reader.find({ equals, from: query.from, to: query.to })) {
      const accountId = String(doc.dims['accountId']);
      const apiKeyId = String(doc.dims['apiKeyId']);
      const lookups = doc.c[USAGE_COUNTERS.lookups] ?? 0;
      const id = `${accountId}|${apiKeyId}|${doc.periodStart.toISOString()}`;
      const row = rows.get(id);
      if (row) row.lookups += lookups;
      else rows.set(id, { accountId, apiKeyId, day: doc.periodStart, lookups });
    }
    return [...rows.values()];
  }
}
