import { Schema, type Connection, type Model } from 'mongoose';
import { PENDING_EVENTS_INDEX, isDuplicateKeyError, outboxUpdate, pendingEventsField, type OutboxEvent } from '@ipdata/common';
import type { Kind } from '../../plans/plan.js';
import type { SubscriptionRepository } from '../../subscriptions/subscription.ports.js';
import type { Subscription } from '../../subscriptions/subscription.js';
import { changeOfOutboxEvent, changeOutboxEvent } from '../kafka/subscription-events.js';

/** The document: the subscription, its unsent changes kept as common outbox entries. */
type SubscriptionDoc = Omit<Subscription, 'id' | 'pendingEvents'> & { _id: string; pendingEvents: OutboxEvent[] };

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
    // The common outbox (OutboxRelay in app.ts sends and removes them).
    ...pendingEventsField,
  },
  { collection: 'subscriptions', versionKey: false, timestamps: false },
);
// One subscription per account and kind: the guard against two concurrent first subscriptions.
schema.index({ accountId: 1, kind: 1 }, { unique: true });
schema.index({ status: 1, periodEnd: 1 });
schema.index(PENDING_EVENTS_INDEX);

function toDoc(subscription: Subscription): SubscriptionDoc {
  const { id, pendingEvents, ...rest } = subscription;
  return { _id: id, ...rest, pendingEvents: pendingEvents.map(changeOutboxEvent) };
}

function fromDoc(doc: SubscriptionDoc): Subscription {
  const { _id, pendingEvents, ...rest } = doc;
  return {
    id: _id,
    ...rest,
    periodEnd: rest.periodEnd ?? null,
    scheduled: rest.scheduled ?? null,
    pendingEvents: (pendingEvents ?? []).map(changeOfOutboxEvent),
  };
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

  /**
   * Compare-and-set on the revision. Only the changes this write made (revision above the
   * expected one) are pushed to the outbox: never `$set` it, the relay may be removing sent
   * entries at the same time.
   */
  async replace(next: Subscription, expectedRevision: number): Promise<boolean> {
    const { id, pendingEvents, ...fields } = next;
    const added = pendingEvents.filter((change) => change.revision > expectedRevision).map(changeOutboxEvent);
    const update = added.length > 0 ? { $set: fields, ...outboxUpdate(added) } : { $set: fields };
    const result = await this.model.collection.updateOne({ _id: id, revision: expectedRevision } as never, update as never);
    return result.matchedCount === 1;
  }

  /** For the OutboxRelay (app.ts), which reads and trims `pendingEvents` itself. */
  get collection() {
    return this.model.collection;
  }

  async dueAt(now: Date, limit: number): Promise<Subscription[]> {
    const docs = await this.model
      .find({ status: 'ACTIVE', periodEnd: { $lte: now } })
      .sort({ periodEnd: 1 })
      .limit(limit)
      .lean<SubscriptionDoc[]>();
    return docs.map(fromDoc);
  }
}
