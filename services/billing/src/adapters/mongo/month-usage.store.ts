import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { ClosedHour, MonthUsageRepository } from '../../invoices/invoice.service.js';

interface ClosedHourDoc {
  /** `<account>|<hour ISO>`: one per account and hour, however often the event arrives. */
  _id: string;
  accountId: string;
  monthStart: Date;
  periodStart: Date;
  lookups: number;
  eventId: string;
}

interface RunningMonthDoc {
  /** `<account>|<month ISO>` */
  _id: string;
  accountId: string;
  monthStart: Date;
  lookups: number;
}

const hourSchema = new Schema<ClosedHourDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    monthStart: { type: Date, required: true },
    periodStart: { type: Date, required: true },
    lookups: { type: Number, required: true },
    eventId: { type: String, required: true },
  },
  { collection: 'usage_closed_hours', versionKey: false },
);
hourSchema.index({ accountId: 1, monthStart: 1 });

const runningSchema = new Schema<RunningMonthDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    monthStart: { type: Date, required: true },
    lookups: { type: Number, required: true },
  },
  { collection: 'usage_running_months', versionKey: false },
);

/** Closed hours and running month totals from usage.rollup.v1 (account totals only). */
export class MongoMonthUsageRepository implements MonthUsageRepository {
  private readonly hours: Model<ClosedHourDoc>;
  private readonly running: Model<RunningMonthDoc>;

  constructor(connection: Connection) {
    this.hours = connection.model<ClosedHourDoc>('ClosedUsageHour', hourSchema);
    this.running = connection.model<RunningMonthDoc>('RunningUsageMonth', runningSchema);
  }

  async createIndexes(): Promise<void> {
    await this.hours.createIndexes();
    await this.running.createIndexes();
  }

  async recordClosedHour(hour: ClosedHour & { monthStart: Date }): Promise<boolean> {
    try {
      await this.hours.collection.insertOne({
        _id: `${hour.accountId}|${hour.periodStart.toISOString()}`,
        accountId: hour.accountId,
        monthStart: hour.monthStart,
        periodStart: hour.periodStart,
        lookups: hour.lookups,
        eventId: hour.eventId,
      } as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async recordRunningTotal(total: { accountId: string; monthStart: Date; lookups: number }): Promise<void> {
    const _id = `${total.accountId}|${total.monthStart.toISOString()}`;
    const write = () =>
      this.running.collection.updateOne(
        { _id } as never,
        { $max: { lookups: total.lookups }, $setOnInsert: { accountId: total.accountId, monthStart: total.monthStart } },
        { upsert: true },
      );
    try {
      await write();
    } catch (error) {
      // Two upserts of a new month at once: one inserted, the other now updates.
      if (!isDuplicateKeyError(error)) throw error;
      await write();
    }
  }

  async usageOf(accountId: string, monthStart: Date): Promise<{ closedHours: number; running: number }> {
    const [sums, running] = await Promise.all([
      this.hours.collection
        .aggregate<{ total: number }>([
          { $match: { accountId, monthStart } },
          { $group: { _id: null, total: { $sum: '$lookups' } } },
        ])
        .toArray(),
      this.running.collection.findOne({ _id: `${accountId}|${monthStart.toISOString()}` } as never),
    ]);
    return { closedHours: Number(sums[0]?.total ?? 0), running: Number(running?.['lookups'] ?? 0) };
  }
}
