import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { Kind } from '../../plans/plan.js';
import type { SubscriptionRepository } from '../../subscriptions/subscription.ports.js';
import type { Subscription } from '../../subscriptions/subscription.js';

type SubscriptionDoc = Omit<Subscription, 'id'> & { _id: string; hasPending: boolean };

const schema = new Schema<SubscriptionDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    kind: { type: String, required: true },
    planId: { type: String, required: true },
    tier: { type: String, required: true },
    interval: { type: String, required: true },
    status: { type: String, required: true },
    periodStart: { type: Date, required: true },
    periodEnd: { type: Date, default: null },
    scheduled: { type: Schema.Types.Mixed, default: null },
    appliedOrderIds: { type: [String], default: [] },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    revision: { type: Number, required: true },
    pendingEvents: { type: Schema.Types.Mixed, default: [] },
    // Indexed flag instead of a query on array length (FerretDB-friendly).
    hasPending: { type: Boolean, required: true },
  },
  { collection: 'subscriptions', versionKey: false, timestamps: false },
);
// One subscription per account and kind: the guard against two concurrent first subscriptions.
schema.index({ accountId: 1, kind: 1 }, { unique: true });
schema.index({ status: 1, periodEnd: 1 });
schema.index({ hasPending: 1 });

function toDoc(subscription: Subscription): SubscriptionDoc {
  const { id, ...rest } = subscription;
  return { _id: id, ...rest, hasPending: rest.pendingEvents.length > 0 };
}

function fromDoc(doc: SubscriptionDoc): Subscription {
  const { _id, hasPending: _hasPending, ...rest } = doc;
  return { id: _id, ...rest, periodEnd: rest.periodEnd ?? null, scheduled: rest.scheduled ?? null };
}

export class MongoSubscriptionRepository implements SubscriptionRepository {
  private readonly model: Model<SubscriptionDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SubscriptionDoc>('Subscription', schema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async find(accountId: string, kind: Kind): Promise<Subscription | null> {
    const doc = await this.model.findOne({ accountId, kind }).lean<SubscriptionDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async listByAccount(accountId: string): Promise<Subscription[]> {
    const docs = await this.model.find({ accountId }).lean<SubscriptionDoc[]>();
    return docs.map(fromDoc);
  }

  async insert(subscription: Subscription): Promise<boolean> {
    try {
      await this.model.collection.insertOne(toDoc(subscription) as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async replace(next: Subscription, expectedRevision: number): Promise<boolean> {
    const { _id, ...fields } = toDoc(next);
    const result = await this.model.collection.updateOne({ _id, revision: expectedRevision } as never, { $set: fields });
    return result.matchedCount === 1;
  }

  async dueAt(now: Date, limit: number): Promise<Subscription[]> {
    const docs = await this.model
      .find({ status: 'ACTIVE', periodEnd: { $lte: now } })
      .sort({ periodEnd: 1 })
      .limit(limit)
      .lean<SubscriptionDoc[]>();
    return docs.map(fromDoc);
  }

  async withPendingEvents(limit: number): Promise<Subscription[]> {
    const docs = await this.model.find({ hasPending: true }).limit(limit).lean<SubscriptionDoc[]>();
    return docs.map(fromDoc);
  }

  async clearPendingEvents(id: string, revision: number): Promise<void> {
    await this.model.collection.updateOne({ _id: id, revision } as never, { $set: { pendingEvents: [], hasPending: false } });
  }
}
