import type { Collection, Connection } from 'mongoose';
import { PENDING_EVENTS_INDEX, TOPICS, outboxEvent, outboxUpdate, type OutboxEvent } from '@ipdata/common';
import { DownloadRecorded } from '@ipdata/proto/events/v1/downloads';
import type { DownloadLink, DownloadRecord, LinkStore } from '../../links/download-link.js';

type LinkDoc = Omit<DownloadLink, 'linkId' | 'served'> & {
  _id: string;
  served: { at: Date; clientIp: string } | null;
  pendingEvents: OutboxEvent[];
};

/**
 * `download_links`: one document per signed link (`_id` = link id). A served link is a row of
 * the history, and the document is the outbox of its DownloadRecorded event: recording the
 * download and storing the event are one single-document write, so both happen or neither.
 * History and live-link queries filter on other fields: on FerretDB they scan the collection,
 * which stays small (links are capped per account and day; see README "Data").
 */
export class MongoLinkStore implements LinkStore {
  static readonly COLLECTION = 'download_links';
  private readonly collection: Collection<LinkDoc>;

  constructor(
    connection: Connection,
    private readonly onRecorded: (linkId: string) => void = () => undefined,
  ) {
    this.collection = connection.collection<LinkDoc>(MongoLinkStore.COLLECTION);
  }

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ accountId: 1, 'served.at': -1 });
    await this.collection.createIndex({ expiresAt: 1 });
    await this.collection.createIndex({ ...PENDING_EVENTS_INDEX });
  }

  async create(link: DownloadLink): Promise<void> {
    const { linkId, served: _served, ...fields } = link;
    await this.collection.insertOne({ _id: linkId, ...fields, served: null, pendingEvents: [] });
  }

  async get(linkId: string): Promise<DownloadLink | null> {
    const doc = await this.collection.findOne({ _id: linkId }, { projection: { pendingEvents: 0 } });
    if (!doc) return null;
    const { _id, served, pendingEvents: _pending, ...fields } = doc;
    return { linkId: _id, ...fields, served: served ?? undefined };
  }

  async recordServed(link: DownloadLink, served: { at: Date; clientIp: string }): Promise<boolean> {
    const event = outboxEvent(
      TOPICS.downloadsRecorded,
      DownloadRecorded.fromPartial({
        accountId: link.accountId,
        downloadId: link.linkId,
        database: link.database,
        format: link.format,
        fileName: link.fileName,
        datasetVersion: link.version,
        sizeBytes: link.sizeBytes,
        clientIp: served.clientIp,
        downloadedAt: served.at,
        meta: { time: served.at },
      }),
      { key: link.accountId, now: served.at },
    );
    // `served: null` guards the once-per-link rule: a second (resumed) request matches nothing.
    const result = await this.collection.updateOne(
      { _id: link.linkId, served: null },
      { $set: { served }, ...outboxUpdate([event]) },
    );
    if (result.modifiedCount !== 1) return false;
    this.onRecorded(link.linkId);
    return true;
  }

  async history(accountId: string, page: { skip: number; limit: number }): Promise<{ records: DownloadRecord[]; total: number }> {
    const filter = { accountId, served: { $ne: null } };
    const [docs, total] = await Promise.all([
      this.collection
        .find(filter, { projection: { pendingEvents: 0 } })
        .sort({ 'served.at': -1, _id: -1 })
        .skip(page.skip)
        .limit(page.limit)
        .toArray(),
      this.collection.countDocuments(filter),
    ]);
    const records = docs.map((doc) => ({
      downloadId: doc._id,
      downloadedAt: doc.served!.at,
      clientIp: doc.served!.clientIp,
      database: doc.database,
      format: doc.format,
      fileName: doc.fileName,
      version: doc.version,
      sizeBytes: doc.sizeBytes,
    }));
    return { records, total };
  }

  async versionsWithLiveLinks(now: Date): Promise<Set<string>> {
    const docs = await this.collection.find({ expiresAt: { $gt: now } }, { projection: { version: 1 } }).toArray();
    return new Set(docs.map((doc) => doc.version));
  }
}
