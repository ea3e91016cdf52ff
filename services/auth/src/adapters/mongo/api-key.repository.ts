import { Schema, type Connection, type Model } from 'mongoose';
import type { ApiKeyRecord, ApiKeyStore } from '../../api-keys/api-key.service.js';

interface ApiKeyDoc {
  _id: string;
  accountId: string;
  name: string;
  prefix: string;
  keyHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    // SHA-256 of the full key; the key itself is shown once and never stored.
    keyHash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'api_keys', versionKey: false },
);

function toRecord(doc: ApiKeyDoc): ApiKeyRecord {
  return {
    id: doc._id,
    accountId: doc.accountId,
    name: doc.name,
    prefix: doc.prefix,
    keyHash: doc.keyHash,
    createdAt: doc.createdAt,
    revokedAt: doc.revokedAt ?? undefined,
  };
}

export class MongoApiKeyRepository implements ApiKeyStore {
  private readonly model: Model<ApiKeyDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<ApiKeyDoc>('ApiKey', apiKeySchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(record: ApiKeyRecord): Promise<void> {
    const { id, revokedAt, ...rest } = record;
    await this.model.create({ ...rest, _id: id, revokedAt: revokedAt ?? null });
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.model.findOne({ keyHash }).lean<ApiKeyDoc>().exec();
    return doc ? toRecord(doc) : undefined;
  }

  async listForAccount(accountId: string, includeRevoked: boolean): Promise<ApiKeyRecord[]> {
    const filter = includeRevoked ? { accountId } : { accountId, revokedAt: null };
    const docs = await this.model.find(filter).sort({ createdAt: 1 }).lean<ApiKeyDoc[]>().exec();
    return docs.map(toRecord);
  }

  async countActive(accountId: string): Promise<number> {
    return this.model.countDocuments({ accountId, revokedAt: null }).exec();
  }

  async revoke(accountId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const doc = await this.model
      .findOneAndUpdate({ _id: keyId, accountId, revokedAt: null }, { $set: { revokedAt: at } }, { returnDocument: 'after' })
      .lean<ApiKeyDoc>()
      .exec();
    return doc ? toRecord(doc) : undefined;
  }

  async activeHashesForAccount(accountId: string): Promise<string[]> {
    const docs = await this.model.find({ accountId, revokedAt: null }, { keyHash: 1 }).lean<ApiKeyDoc[]>().exec();
    return docs.map((doc) => doc.keyHash);
  }
}
