import type { Clock } from '@ipdata/common';
import { quotaDay, quotaMonth, type QuotaCounterFloor, type QuotaCounters } from '@ipdata/metering';
import { monthStart, nextMonthStart } from '../counters/counter-delta.js';

/** PUBLIC_API lookups (Σ event `count`) of one account's key on one UTC day, from the rollups. */
export interface QuotaUsageRow {
  accountId: string;
  apiKeyId: string;
  /** UTC day start. */
  day: Date;
  lookups: number;
}

/** Port: the usage rollups' PUBLIC_API lookups per (account, key, day) (rollup-quota-usage.ts). */
export interface QuotaUsageSource {
  publicApiLookupsByDay(query: { from: Date; to: Date; accountId?: string }): Promise<QuotaUsageRow[]>;
}

/** Port: the quota counters in Redis (metering's RedisQuotaCounters). */
export type { QuotaCounterFloor, QuotaCounters };

export interface ReconcileResult {
  accounts: number;
  countersRaised: number;
  monthStart: Date;
}

/**
 * Rebuilds bff-en's quota counters of the current month from the rollups, e.g. after Redis lost
 * data: the monthly counter per account, the day counters per account and per key. They count
 * PUBLIC_API grants, i.e. Σ `count` of PUBLIC_API events, which is what the rollups' `lookups`
 * of that channel hold. A counter is only raised: traffic accepted after the loss is already in
 * Redis and still on its way through the ledger, so a lower rollup value is not a reason to lower it.
 */
export class QuotaReconciler {
  constructor(
    private readonly usage: QuotaUsageSource,
    private readonly counters: QuotaCounters,
    private readonly clock: Clock,
  ) {}

  async reconcile(options: { accountId?: string } = {}): Promise<ReconcileResult> {
    const now = this.clock.now();
    const from = monthStart(now);
    const query = options.accountId
      ? { from, to: nextMonthStart(now), accountId: options.accountId }
      : { from, to: nextMonthStart(now) };
    const rows = await this.usage.publicApiLookupsByDay(query);
    const floors = quotaFloors(rows, quotaMonth(from));
    const accounts = new Set(rows.filter((row) => row.lookups > 0).map((row) => row.accountId)).size;
    const countersRaised = floors.length === 0 ? 0 : await this.counters.raise(floors);
    return { accounts, countersRaised, monthStart: from };
  }
}

/** The counters' floors from per-(account, key, day) rows of one month. */
export function quotaFloors(rows: readonly QuotaUsageRow[], month: string): QuotaCounterFloor[] {
  const sums = new Map<string, QuotaCounterFloor>();
  const add = (kind: QuotaCounterFloor['kind'], owner: string, period: string, value: number) => {
    const id = `${kind}|${owner}|${period}`;
    const floor = sums.get(id);
    if (floor) floor.value += value;
    else sums.set(id, { kind, owner, period, value });
  };
  for (const row of rows) {
    if (row.lookups <= 0 || row.accountId === '') continue;
    const day = quotaDay(row.day);
    add('month', row.accountId, month, row.lookups);
    add('accountDay', row.accountId, day, row.lookups);
    // bff-en counts key days for public API keys only; a rollup without a key has none to raise.
    if (row.apiKeyId !== '') add('keyDay', row.apiKeyId, day, row.lookups);
  }
  return [...sums.values()];
}
