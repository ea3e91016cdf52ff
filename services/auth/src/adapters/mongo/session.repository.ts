import { Schema, type Connection, type Model } from 'mongoose';
import type { SessionRecord, SessionStore } from '../../sessions/session.service.js';

interface SessionDoc {
  _id: string;
  accountId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt?: Date | null;
}

// _id is the SHA-256 of the token: the token itself is never stored.
const sessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true, index: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: true },
    revokedAt: { type: Date, default: null },
    lastSeenAt: { type: Date, default: null, index: true },
  },
  { collection: 'sessions', versionKey: false },
);

function toRecord(doc: SessionDoc): SessionRecord {
  return {
    tokenHash: doc._id,
    accountId: doc.accountId,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    revokedAt: doc.revokedAt ?? undefined,
    // Sessions stored before the idle timeout existed count from their creation.
    lastSeenAt: doc.lastSeenAt ?? doc.createdAt,
  };
}

/** No TTL index (FerretDB has none): expiry is checked on read and old documents are swept. */
export class MongoSessionRepository implements SessionStore {
  private readonly model: Model<SessionDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SessionDoc>('Session', sessionSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(session: SessionRecord): Promise<void> {
    await this.model.create({
      _id: session.tokenHash,
      accountId: session.accountId,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      revokedAt: session.revokedAt ?? null,
      lastSeenAt: session.lastSeenAt,
    });
  }

  async findByHash(tokenHash: string): Promise<SessionRecord | undefined> {
    const doc = await this.model.findById(tokenHash).lean<SessionDoc>().exec();
    return doc ? toRecord(doc) : undefined;
  }

  async revoke(tokenHash: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: tokenHash, revokedAt: null }, { $set: { revokedAt: at } }).exec();
  }

  async touch(tokenHash: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: tokenHash, revokedAt: null }, { $set: { lastSeenAt: at } }).exec();
  }

  async revokeAllForAccount(accountId: string, at: Date, exceptHash?: string): Promise<string[]> {
    const filter = {
      accountId,
      revokedAt: null,
      expiresAt: { $gt: at },
      ...(exceptHash === undefined ? {} : { _id: { $ne: exceptHash } }),
    };
    const docs = await this.model.find(filter, { _id: 1 }).lean<Array<{ _id: string }>>().exec();
    const hashes = docs.map((doc) => doc._id);
    if (hashes.length > 0) await this.model.updateMany({ _id: { $in: hashes } }, { $set: { revokedAt: at } }).exec();
    return hashes;
  }

  async deleteExpired(before: Date, idleBefore: Date): Promise<number> {
    const result = await this.model
      .deleteMany({ $or: [{ expiresAt: { $lte: before } }, { lastSeenAt: { $lte: idleBefore } }] })
      .exec();
    return result.deletedCount;
  }
}
