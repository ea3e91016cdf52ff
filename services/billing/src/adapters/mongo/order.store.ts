import { Schema, type Connection, type Model } from 'mongoose';
import { InternalError, isDuplicateKeyError } from '@ipdata/common';
import type { Order, OrderRepository, OrderStatus, ProcessedCallbacks } from '../../payments/order.js';

type OrderDoc = Omit<Order, 'id'> & { _id: string };

const orderSchema = new Schema<OrderDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    kind: { type: String, required: true },
    planId: { type: String, required: true },
    amountMinor: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, required: true },
    provider: { type: String, required: true },
    providerRef: { type: String, required: true },
    checkoutUrl: { type: String, default: '' },
    returnUrl: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    paidAt: { type: Date, default: null },
  },
  { collection: 'orders', versionKey: false },
);
orderSchema.index({ provider: 1, providerRef: 1 }, { unique: true });
orderSchema.index({ accountId: 1, createdAt: -1 });
orderSchema.index({ status: 1, expiresAt: 1 });

function fromDoc(doc: OrderDoc): Order {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest, paidAt: rest.paidAt ?? null };
}

export class MongoOrderRepository implements OrderRepository {
  private readonly model: Model<OrderDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<OrderDoc>('Order', orderSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(order: Order): Promise<void> {
    const { id, ...rest } = order;
    // Unique placeholder until the provider names its checkout (the index is unique).
    await this.model.collection.insertOne({ _id: id, ...rest, providerRef: rest.providerRef || `pending:${id}` } as never);
  }

  async setCheckout(id: string, providerRef: string, checkoutUrl: string): Promise<Order> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id }, { $set: { providerRef, checkoutUrl } }, { returnDocument: 'after' })
      .lean<OrderDoc>();
    if (!doc) throw new InternalError(`order ${id} vanished`);
    return fromDoc(doc);
  }

  async get(id: string): Promise<Order | null> {
    const doc = await this.model.findById(id).lean<OrderDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async findByProviderRef(provider: string, providerRef: string): Promise<Order | null> {
    const doc = await this.model.findOne({ provider, providerRef }).lean<OrderDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async listByAccount(accountId: string, offset: number, limit: number): Promise<Order[]> {
    const docs = await this.model
      .find({ accountId })
      .sort({ createdAt: -1, _id: -1 })
      .skip(offset)
      .limit(limit)
      .lean<OrderDoc[]>();
    return docs.map(fromDoc);
  }

  async transition(
    id: string,
    from: readonly OrderStatus[],
    to: OrderStatus,
    fields: { paidAt?: Date } = {},
  ): Promise<Order | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, status: { $in: [...from] } }, { $set: { status: to, ...fields } }, { returnDocument: 'after' })
      .lean<OrderDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async expireDue(now: Date): Promise<number> {
    const result = await this.model.updateMany({ status: 'PENDING', expiresAt: { $lte: now } }, { $set: { status: 'EXPIRED' } });
    return result.modifiedCount;
  }
}

interface CallbackDoc {
  _id: string;
  provider: string;
  eventId: string;
  orderId: string;
  outcome: string;
  receivedAt: Date;
}

const callbackSchema = new Schema<CallbackDoc>(
  {
    // provider:eventId — the primary key is the unique index on processed callback ids.
    _id: { type: String, required: true },
    provider: String,
    eventId: String,
    orderId: String,
    outcome: String,
    receivedAt: Date,
  },
  { collection: 'payment_callbacks', versionKey: false },
);
callbackSchema.index({ orderId: 1 });

export class MongoProcessedCallbacks implements ProcessedCallbacks {
  private readonly model: Model<CallbackDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<CallbackDoc>('PaymentCallback', callbackSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async has(provider: string, eventId: string): Promise<boolean> {
    return (await this.model.exists({ _id: `${provider}:${eventId}` })) !== null;
  }

  async record(entry: {
    provider: string;
    eventId: string;
    orderId: string;
    outcome: string;
    receivedAt: Date;
  }): Promise<boolean> {
    try {
      await this.model.collection.insertOne({ _id: `${entry.provider}:${entry.eventId}`, ...entry } as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** For tests and support: how often an order's callbacks were handled. */
  async countForOrder(orderId: string): Promise<number> {
    return this.model.countDocuments({ orderId });
  }
}
