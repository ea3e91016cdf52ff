import type { Collection, Connection } from 'mongoose';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { isDuplicateKeyError, PENDING_EVENTS_INDEX, type OutboxEvent } from '@ipdata/common';
import type { ClosedRecord, ClosedRecords, ClosedUsageSource, LiveUsageSource } from '../../closing/closing-ports.js';
import { CARRIED_PREFIX, CARRY_LOOKBACK_MS, carriedKey } from '../../closing/carry.js';
import { nextMonthStart } from '../../counters/counter-delta.js';
import { closedRecordId, closedRollupOutboxEvent } from '../kafka/rollup-events.js';

export const CLOSED_COLLECTION = 'usage_closed';

interface ClosedDoc {
  _id: string;
  period: ClosedRecord['period'];
  accountId: string;
  periodStart: Date;
  lookups: number;
  closedAt: Date;
  pendingEvents: OutboxEvent[];
}

/** Billing counts the public API only (TOPICS.md usage.lookup.v1). */
const BILLED_CHANNEL = UsageChannel.USAGE_CHANNEL_PUBLIC_API;

interface HourDoc {
  accountId: string;
  c?: Record<string, number>;
}

/** `$group` per account of a numeric field, as a Map. */
async function sumByAccount(collection: Collection, match: Record<string, unknown>, field: string): Promise<Map<string, number>> {
  const rows = await collection
    .aggregate<{ _id: string; total: number }>([{ $match: match }, { $group: { _id: '$accountId', total: { $sum: field } } }])
    .toArray();
  return new Map(rows.map((row) => [row._id, Number(row.total ?? 0)]));
}

/**
 * `usage_closed`: the closed records billing is told about, each with its UsageRollup in the
 * common outbox (`pendingEvents`, sent by an OutboxRelay over this collection). The id is the
 * period, account and start, so insert-if-absent makes every (account, hour) and (account,
 * month) exactly one record and one event, however many closing runs try.
 */
export class MongoClosedRecords implements ClosedRecords {
  constructor(private readonly connection: Connection) {}

  /** Untyped, for the OutboxRelay. */
  get collection(): Collection {
    return this.connection.collection(CLOSED_COLLECTION);
  }

  private get docs(): Collection<ClosedDoc> {
    return this.connection.collection<ClosedDoc>(CLOSED_COLLECTION);
  }

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ period: 1, periodStart: 1 });
    await this.collection.createIndex(PENDING_EVENTS_INDEX);
  }

  async insertIfAbsent(record: ClosedRecord, now: Date): Promise<string | null> {
    const id = closedRecordId(record);
    try {
      await this.docs.insertOne({
        _id: id,
        period: record.period,
        accountId: record.accountId,
        periodStart: record.periodStart,
        lookups: record.lookups,
        closedAt: now,
        pendingEvents: [closedRollupOutboxEvent(record, now)],
      });
      return id;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  hourSums(from: Date, to: Date): Promise<Map<string, number>> {
    return sumByAccount(this.collection, { period: 'hour', periodStart: { $gte: from, $lt: to } }, '$lookups');
  }
}

/**
 * Reads the ledger's counters for closing from `usage_rollups` (the live generation, resolved per
 * call). Layout: DESIGN-12 "usage_rollups"; late lookups are marked in their own hour document
 * (CARRIED_PREFIX), in the same single-document update that counted them, so a re-delivered
 * record can neither add a second carry nor be counted in the hour after it was closed.
 */
export class MongoClosingUsage implements ClosedUsageSource, LiveUsageSource {
  constructor(
    private readonly connection: Connection,
    private readonly usageCollection: () => string,
  ) {}

  private get rollups(): Collection {
    return this.connection.collection(this.usageCollection());
  }

  /**
   * Closed hour X per account = Σ over its PUBLIC_API hour documents of X of (lookups − what was
   * carried out of them) + Σ of what was carried into X from earlier hours (`cr:<X>`). The first
   * part cannot grow after the gate wait: later lookups of X are carried.
   */
  async hourTotals(hour: Date): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    const add = (accountId: string, lookups: number) => totals.set(accountId, (totals.get(accountId) ?? 0) + lookups);
    const own = this.rollups.find<HourDoc>(
      { g: 'h', periodStart: hour, channel: BILLED_CHANNEL, accountId: { $ne: '' } },
      { projection: { accountId: 1, c: 1 } },
    );
    for await (const doc of own) {
      let onTime = Number(doc.c?.['lookups'] ?? 0);
      for (const [field, value] of Object.entries(doc.c ?? {})) if (field.startsWith(CARRIED_PREFIX)) onTime -= Number(value);
      add(doc.accountId, onTime);
    }
    const field = `c.${carriedKey(hour)}`;
    const carried = this.rollups.find<HourDoc>(
      {
        g: 'h',
        channel: BILLED_CHANNEL,
        periodStart: { $gte: new Date(hour.getTime() - CARRY_LOOKBACK_MS), $lt: hour },
        [field]: { $exists: true },
      },
      { projection: { accountId: 1, [field]: 1 } },
    );
    for await (const doc of carried) add(doc.accountId, Number(doc.c?.[carriedKey(hour)] ?? 0));
    return totals;
  }

  /** Σ PUBLIC_API lookups of the month's days so far per account (months are sums of days). */
  async monthTotals(accountIds: readonly string[], monthStart: Date): Promise<Map<string, number>> {
    if (accountIds.length === 0) return new Map();
    return sumByAccount(
      this.rollups,
      {
        g: 'd',
        channel: BILLED_CHANNEL,
        accountId: { $in: [...accountIds] },
        periodStart: { $gte: monthStart, $lt: nextMonthStart(monthStart) },
      },
      '$c.lookups',
    );
  }

  async accountsWithUsage(hour: Date): Promise<string[]> {
    const ids = await this.rollups.distinct('accountId', { g: 'h', periodStart: hour, channel: BILLED_CHANNEL });
    return (ids as unknown[]).filter((id): id is string => typeof id === 'string' && id !== '');
  }
}
