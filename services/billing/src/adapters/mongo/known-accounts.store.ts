import { Schema, type Connection, type Model } from 'mongoose';
import type { KnownAccounts } from '../../subscriptions/subscription.ports.js';

interface KnownAccountDoc {
  _id: string;
  registeredAt: Date;
}

const schema = new Schema<KnownAccountDoc>(
  {
    _id: { type: String, required: true },
    registeredAt: { type: Date, required: true },
  },
  { collection: 'accounts', versionKey: false },
);

/** One document per account auth announced; the primary key makes re-deliveries no-ops. */
export class MongoKnownAccounts implements KnownAccounts {
  private readonly model: Model<KnownAccountDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<KnownAccountDoc>('KnownAccount', schema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async remember(accountId: string, registeredAt: Date): Promise<void> {
    await this.model.collection.updateOne({ _id: accountId } as never, { $setOnInsert: { registeredAt } }, { upsert: true });
  }

  async has(accountId: string): Promise<boolean> {
    return (await this.model.exists({ _id: accountId })) !== null;
  }
}
