import type { Collection, Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { DailyCounter } from '../../links/download-link.js';

interface CountDoc {
  _id: string;
  accountId: string;
  day: string;
  count: number;
}

/**
 * `daily_link_counts`: `_id: "<account>:<yyyy-mm-dd>"`, so every read and write is an _id lookup
 * (FerretDB pushes no other filter down). One conditional increment per link: the document
 * stops growing at the limit, and the upsert of a refused increment collides on _id.
 */
export class MongoDailyCounter implements DailyCounter {
  private readonly collection: Collection<CountDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<CountDoc>('daily_link_counts');
  }

  async take(accountId: string, day: string, limit: number): Promise<number | null> {
    try {
      const doc = await this.collection.findOneAndUpdate(
        { _id: `${accountId}:${day}`, count: { $lt: limit } },
        { $inc: { count: 1 }, $setOnInsert: { accountId, day } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.count ?? null;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  async used(accountId: string, day: string): Promise<number> {
    return (await this.collection.findOne({ _id: `${accountId}:${day}` }))?.count ?? 0;
  }
}
