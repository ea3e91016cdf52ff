import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { Kind } from '../../plans/plan.js';
import type { ChangeHistory } from '../../subscriptions/subscription.ports.js';
import { PERIOD_STARTING_CHANGES, type SubscriptionChangeRecord } from '../../subscriptions/subscription.js';

type ChangeDoc = Omit<SubscriptionChangeRecord, 'id'> & { _id: string };

const schema = new Schema<ChangeDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    kind: { type: String, required: true },
    change: { type: String, required: true },
    effectiveAt: { type: Date, required: true },
    periodStart: { type: Date, required: true },
    revision: { type: Number, required: true },
  },
  // The remaining fields (plan, limits, prices, order) are stored as the record has them.
  { collection: 'subscription_changes', versionKey: false, strict: false },
);
schema.index({ accountId: 1, kind: 1, effectiveAt: -1 });
schema.index({ accountId: 1, kind: 1, periodStart: 1 });

function fromDoc(doc: ChangeDoc): SubscriptionChangeRecord {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest, periodEnd: rest.periodEnd ?? null, orderId: rest.orderId ?? null };
}

export class MongoChangeHistory implements ChangeHistory {
  private readonly model: Model<ChangeDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<ChangeDoc>('SubscriptionChange', schema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async record(change: SubscriptionChangeRecord): Promise<void> {
    const { id, ...rest } = change;
    try {
      await this.model.collection.insertOne({ _id: id, ...rest } as never);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async latestBefore(accountId: string, kind: Kind, before: Date): Promise<SubscriptionChangeRecord | null> {
    const doc = await this.model
      .findOne({ accountId, kind, effectiveAt: { $lt: before } })
      .sort({ effectiveAt: -1, revision: -1 })
      .lean<ChangeDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async periodsStartedIn(accountId: string, kind: Kind, from: Date, to: Date): Promise<SubscriptionChangeRecord[]> {
    const docs = await this.model
      .find({ accountId, kind, change: { $in: PERIOD_STARTING_CHANGES }, periodStart: { $gte: from, $lt: to } })
      .sort({ periodStart: 1, revision: 1 })
      .lean<ChangeDoc[]>();
    return docs.map(fromDoc);
  }
}
