import type { Collection, Connection } from 'mongoose';
import type { Notice, NoticeStore } from '../../notices/notices.js';
import { chunks } from './chunks.js';

type NoticeDoc = Omit<Notice, 'id'> & { _id: string };

/** `notices`: one document per notice, `_id` = its id (seeded ones have fixed ids). */
export class MongoNoticeStore implements NoticeStore {
  private readonly collection: Collection<NoticeDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<NoticeDoc>('notices');
  }

  async seed(notices: readonly Notice[]): Promise<void> {
    for (const chunk of chunks(notices)) {
      await this.collection.bulkWrite(
        chunk.map(({ id, ...fields }) => ({ updateOne: { filter: { _id: id }, update: { $set: fields }, upsert: true } })),
        { ordered: false },
      );
    }
  }

  async latest(limit: number): Promise<Notice[]> {
    const docs = await this.collection.find({}).sort({ publishedAt: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(({ _id, ...fields }) => ({ id: _id, ...fields }));
  }
}
