import type { Collection, Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { AccountMessage, MessageStore } from '../../messages/messages.js';

type MessageDoc = Omit<AccountMessage, 'id'> & { _id: string };

/**
 * `account_messages`: `_id` = `<kind>-<event id>`, so the insert of a re-delivered event collides
 * on _id (the one filter FerretDB pushes down) and is ignored. Per-account queries filter on
 * accountId: a scan on FerretDB, fine while the collection is small (see README "Data").
 */
export class MongoMessageStore implements MessageStore {
  private readonly collection: Collection<MessageDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<MessageDoc>('account_messages');
  }

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ accountId: 1, createdAt: -1 });
  }

  async addOnce(message: AccountMessage): Promise<boolean> {
    const { id, ...fields } = message;
    try {
      await this.collection.insertOne({ _id: id, ...fields });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async page(accountId: string, page: { skip: number; limit: number }) {
    const [docs, total] = await Promise.all([
      this.collection.find({ accountId }).sort({ createdAt: -1, _id: -1 }).skip(page.skip).limit(page.limit).toArray(),
      this.collection.countDocuments({ accountId }),
    ]);
    return { messages: docs.map(({ _id, ...fields }) => ({ id: _id, ...fields })), total };
  }

  unread(accountId: string): Promise<number> {
    return this.collection.countDocuments({ accountId, read: false });
  }

  async markRead(accountId: string, ids: readonly string[] | undefined): Promise<void> {
    // One update statement (FerretDB hangs on very long update commands; ids are capped at 100).
    await this.collection.updateMany(
      ids === undefined ? { accountId, read: false } : { _id: { $in: [...ids] }, accountId, read: false },
      { $set: { read: true } },
    );
  }
}
