import { Schema, type Connection, type Model } from 'mongoose';

/** A UserEvent waiting to be (or being) sent to Kafka. */
export interface OutboxEntry {
  id: string;
  accountId: string;
  kind: number;
  channel: number;
  email: string;
  apiKeyId: string;
  /** When the fact happened (injectable clock): the event's meta.time. */
  eventTime: Date;
  /** Real time the entry was written: orders the relay and ages entries. */
  createdAt: Date;
}

interface OutboxDoc extends Omit<OutboxEntry, 'id'> {
  _id: string;
}

const outboxSchema = new Schema<OutboxDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true, index: true },
    kind: { type: Number, required: true },
    channel: { type: Number, required: true },
    email: { type: String, default: '' },
    apiKeyId: { type: String, default: '' },
    eventTime: { type: Date, required: true },
    createdAt: { type: Date, required: true, index: true },
  },
  { collection: 'outbox', versionKey: false },
);

function toEntry(doc: OutboxDoc): OutboxEntry {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest };
}

/** Events are written here before they are sent, so a Kafka outage loses none (transactional outbox without transactions). */
export class MongoOutboxRepository {
  private readonly model: Model<OutboxDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<OutboxDoc>('Outbox', outboxSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async add(entry: OutboxEntry): Promise<void> {
    const { id, ...rest } = entry;
    await this.model.create({ _id: id, ...rest });
  }

  /** Whether the account has older entries still waiting (then a newer one must wait too, to keep order). */
  async hasOlder(accountId: string, entry: OutboxEntry): Promise<boolean> {
    const older = await this.model
      .countDocuments({ accountId, _id: { $ne: entry.id }, createdAt: { $lte: entry.createdAt } })
      .exec();
    return older > 0;
  }

  async remove(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id }).exec();
  }

  /** Entries written before `before`, oldest first. */
  async pending(before: Date, limit: number): Promise<OutboxEntry[]> {
    const docs = await this.model
      .find({ createdAt: { $lt: before } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<OutboxDoc[]>()
      .exec();
    return docs.map(toEntry);
  }

  async count(): Promise<number> {
    return this.model.countDocuments().exec();
  }
}
