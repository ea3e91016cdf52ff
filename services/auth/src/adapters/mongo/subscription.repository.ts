import { PlanLimits } from '@ipdata/proto/events/v1/billing';
import { Schema, type Connection, type Model } from 'mongoose';
import type { SubscriptionRepository, SubscriptionState } from '../../entitlements/entitlements.js';

interface SubscriptionDoc {
  /** `${accountId}:${kind}`: one document per account and subscription kind. */
  _id: string;
  accountId: string;
  kind: number;
  subscriptionId: string;
  change: number;
  planId: string;
  tier: number;
  limits: PlanLimits;
  periodEnd: Date | null;
  eventTime: Date;
  eventId: string;
}

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true, index: true },
    kind: { type: Number, required: true },
    subscriptionId: { type: String, default: '' },
    change: { type: Number, required: true },
    planId: { type: String, default: '' },
    tier: { type: Number, required: true },
    limits: { type: Schema.Types.Mixed, required: true },
    periodEnd: { type: Date, default: null },
    eventTime: { type: Date, required: true },
    eventId: { type: String, required: true },
  },
  { collection: 'subscriptions', versionKey: false },
);

export class MongoSubscriptionRepository implements SubscriptionRepository {
  private readonly model: Model<SubscriptionDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SubscriptionDoc>('Subscription', subscriptionSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async applyIfNewer(state: SubscriptionState): Promise<boolean> {
    const _id = `${state.accountId}:${state.kind}`;
    const doc = { ...state, _id, periodEnd: state.periodEnd ?? null };
    // Conditional replace: only when the stored event is not newer (an upsert on a filter with a
    // range would collide with the existing _id, so insert and replace are separate steps).
    const replaced = await this.model.replaceOne({ _id, eventTime: { $lte: state.eventTime } }, doc).exec();
    if (replaced.matchedCount > 0) return true;
    try {
      await this.model.create(doc);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) return false; // a newer state is stored
      throw error;
    }
  }

  async forAccount(accountId: string): Promise<SubscriptionState[]> {
    const docs = await this.model.find({ accountId }).lean<SubscriptionDoc[]>().exec();
    return docs.map((doc) => ({
      accountId: doc.accountId,
      kind: doc.kind,
      subscriptionId: doc.subscriptionId,
      change: doc.change,
      planId: doc.planId,
      tier: doc.tier,
      // Documents stored before PlanLimits gained fields lack them: fill the defaults.
      limits: PlanLimits.fromPartial(doc.limits),
      periodEnd: doc.periodEnd ?? undefined,
      eventTime: doc.eventTime,
      eventId: doc.eventId,
    }));
  }
}
