import {
  isDuplicateKeyError,
  outboxUpdate,
  PENDING_EVENTS_INDEX,
  pendingEventsField,
  type Clock,
  type OutboxEvent,
} from '@ipdata/common';
import { Schema, type Collection, type Connection, type Model } from 'mongoose';
import type { UserEventInput } from '../../accounts/account.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../api-keys/api-key.service.js';
import { userOutboxEvents } from './account.repository.js';

interface ApiKeyDoc {
  _id: string;
  accountId: string;
  name: string;
  prefix: string;
  keyHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** The cap slot the key holds while active (see api_key_slots). */
  slot?: number | null;
  pendingEvents?: OutboxEvent[];
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
    slot: { type: Number, default: null },
    ...pendingEventsField,
  },
  { collection: 'api_keys', versionKey: false },
);
apiKeySchema.index(PENDING_EVENTS_INDEX);

/**
 * One document per active key and cap slot: `_id` = `<accountId>:<n>` with n < the cap. The cap
 * holds because the unique `_id` lets only one insert win a slot, across replicas; counting
 * documents and then inserting does not (40 parallel creates once left 37 active keys), and
 * FerretDB's single-document updates are not atomic either, so a counter would not do.
 */
interface SlotDoc {
  _id: string;
  accountId: string;
  keyId: string;
  /** Real time of the claim: a slot whose key is not written yet is not an orphan. */
  claimedAt: Date;
}

// Far longer than a create takes between claiming the slot and writing the key.
const ORPHAN_GRACE_MS = 60_000;

const slotSchema = new Schema<SlotDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true, index: true },
    keyId: { type: String, required: true },
    claimedAt: { type: Date, required: true },
  },
  { collection: 'api_key_slots', versionKey: false },
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

const WITHOUT_EVENTS = { pendingEvents: 0 } as const;

export class MongoApiKeyRepository implements ApiKeyStore {
  private readonly model: Model<ApiKeyDoc>;
  private readonly slots: Model<SlotDoc>;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly published: (id: string) => Promise<unknown>,
  ) {
    this.model = connection.model<ApiKeyDoc>('ApiKey', apiKeySchema);
    this.slots = connection.model<SlotDoc>('ApiKeySlot', slotSchema);
  }

  /** For the OutboxRelay. */
  get collection(): Collection {
    return this.model.collection;
  }

  async createIndexes(): Promise<void> {
    await Promise.all([this.model.createIndexes(), this.slots.createIndexes()]);
  }

  async insertWithinCap(record: ApiKeyRecord, max: number, events: readonly UserEventInput[]): Promise<boolean> {
    let slot = await this.claimSlot(record.accountId, record.id, max);
    if (slot === undefined && (await this.releaseOrphanSlots(record.accountId)) > 0) {
      slot = await this.claimSlot(record.accountId, record.id, max);
    }
    if (slot === undefined) return false;
    try {
      await this.insertKey(record, slot, events);
    } catch (error) {
      await this.slots.deleteOne({ _id: slotId(record.accountId, slot), keyId: record.id }).exec();
      throw error;
    }
    return true;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.model.findOne({ keyHash }, WITHOUT_EVENTS).lean<ApiKeyDoc>().exec();
    return doc ? toRecord(doc) : undefined;
  }

  async listForAccount(accountId: string, includeRevoked: boolean): Promise<ApiKeyRecord[]> {
    const filter = includeRevoked ? { accountId } : { accountId, revokedAt: null };
    const docs = await this.model.find(filter, WITHOUT_EVENTS).sort({ createdAt: 1 }).lean<ApiKeyDoc[]>().exec();
    return docs.map(toRecord);
  }

  async revoke(accountId: string, keyId: string, at: Date, events: readonly UserEventInput[]): Promise<ApiKeyRecord | undefined> {
    const doc = await this.revokeKey(accountId, keyId, at, events);
    if (!doc) return undefined;
    if (typeof doc.slot === 'number') await this.slots.deleteOne({ _id: slotId(accountId, doc.slot), keyId }).exec();
    await this.published(keyId);
    return toRecord(doc);
  }

  async replace(
    accountId: string,
    oldKeyId: string,
    next: ApiKeyRecord,
    at: Date,
    events: { revoked: readonly UserEventInput[]; created: readonly UserEventInput[] },
  ): Promise<ApiKeyRecord | undefined> {
    const old = await this.revokeKey(accountId, oldKeyId, at, events.revoked);
    if (!old) return undefined;
    await this.published(oldKeyId);
    // The new key takes over the old key's slot: a rotation never fails on the cap.
    const slot = typeof old.slot === 'number' ? old.slot : null;
    if (slot !== null)
      await this.slots.updateOne({ _id: slotId(accountId, slot), keyId: oldKeyId }, { $set: { keyId: next.id } }).exec();
    await this.insertKey(next, slot, events.created);
    return toRecord(old);
  }

  async activeHashesForAccount(accountId: string): Promise<string[]> {
    const docs = await this.model.find({ accountId, revokedAt: null }, { keyHash: 1 }).lean<ApiKeyDoc[]>().exec();
    return docs.map((doc) => doc.keyHash);
  }

  private async insertKey(record: ApiKeyRecord, slot: number | null, events: readonly UserEventInput[]): Promise<void> {
    const { id, revokedAt, ...rest } = record;
    await this.model.create({
      ...rest,
      _id: id,
      revokedAt: revokedAt ?? null,
      slot,
      pendingEvents: userOutboxEvents(events, this.clock.now()),
    });
    await this.published(id);
  }

  private async revokeKey(
    accountId: string,
    keyId: string,
    at: Date,
    events: readonly UserEventInput[],
  ): Promise<ApiKeyDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: keyId, accountId, revokedAt: null },
        { $set: { revokedAt: at }, ...outboxUpdate(userOutboxEvents(events, this.clock.now())) },
        // No projection: FerretDB's findAndModify does not support one.
        { returnDocument: 'after' },
      )
      .lean<ApiKeyDoc>()
      .exec();
  }

  /** Inserts the first free slot document (in random order, so parallel creates rarely collide); undefined when all are taken. */
  private async claimSlot(accountId: string, keyId: string, max: number): Promise<number | undefined> {
    const taken = new Set(
      (await this.slots.find({ accountId }, { _id: 1 }).lean<Array<{ _id: string }>>().exec()).map((doc) => doc._id),
    );
    const free = Array.from({ length: max }, (_, n) => n).filter((n) => !taken.has(slotId(accountId, n)));
    for (let i = free.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [free[i], free[j]] = [free[j]!, free[i]!];
    }
    for (const n of free) {
      try {
        await this.slots.create({ _id: slotId(accountId, n), accountId, keyId, claimedAt: new Date() });
        return n;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    return undefined;
  }

  /** Frees slots whose key is gone or revoked (a crash between the key write and the slot release). */
  private async releaseOrphanSlots(accountId: string): Promise<number> {
    const slots = await this.slots
      .find({ accountId, claimedAt: { $lt: new Date(Date.now() - ORPHAN_GRACE_MS) } })
      .lean<SlotDoc[]>()
      .exec();
    const active = new Set(
      (await this.model.find({ accountId, revokedAt: null }, { _id: 1 }).lean<Array<{ _id: string }>>().exec()).map(
        (doc) => doc._id,
      ),
    );
    const orphans = slots.filter((slot) => !active.has(slot.keyId));
    if (orphans.length === 0) return 0;
    // Guarded by keyId: a slot re-claimed meanwhile is left alone.
    const results = await Promise.all(orphans.map((slot) => this.slots.deleteOne({ _id: slot._id, keyId: slot.keyId }).exec()));
    return results.reduce((sum, result) => sum + result.deletedCount, 0);
  }
}

function slotId(accountId: string, slot: number): string {
  return `${accountId}:${slot}`;
}
