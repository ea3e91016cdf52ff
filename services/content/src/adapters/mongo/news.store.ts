import type { Collection, Connection } from 'mongoose';
import type { NewsArticle, NewsStore, NewsSummary } from '../../news/news.js';
import type { SeedArticle } from '../../seeds/seed-file.js';
import { chunks } from './chunks.js';

type NewsDoc = Omit<NewsArticle, 'id'> & { _id: string };

const SUMMARY_PROJECTION = { bodyHtml: 0, author: 0, published: 0 } as const;
const NEWEST_FIRST = { publishedAt: -1, _id: -1 } as const;

function summary(doc: Omit<NewsDoc, 'bodyHtml' | 'author' | 'published'> & Partial<NewsDoc>): NewsSummary {
  return {
    id: doc._id,
    product: doc.product,
    title: doc.title,
    summary: doc.summary,
    coverUrl: doc.coverUrl,
    publishedAt: doc.publishedAt,
    isSample: doc.isSample,
    views: doc.views ?? 0,
    tags: doc.tags ?? [],
  };
}

/**
 * `news`: one document per article, `_id` = the article id (seeded ones have fixed ids). List
 * queries filter on product: on FerretDB they scan the collection, which stays small (tens to
 * hundreds of articles). Order: newest first, ties by id, the same in lists and neighbours.
 */
export class MongoNewsStore implements NewsStore {
  private readonly collection: Collection<NewsDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<NewsDoc>('news');
  }

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ product: 1, publishedAt: -1 });
  }

  /** Upsert by id: the seed's fields are (re)written, views are kept; nothing else is touched. */
  async seed(articles: readonly SeedArticle[]): Promise<void> {
    for (const chunk of chunks(articles)) {
      await this.collection.bulkWrite(
        chunk.map(({ id, ...fields }) => ({
          updateOne: { filter: { _id: id }, update: { $set: fields, $setOnInsert: { views: 0 } }, upsert: true },
        })),
        { ordered: false },
      );
    }
  }

  async list(product: string, page: { skip: number; limit: number }) {
    const filter = { product, published: true };
    const [docs, total] = await Promise.all([
      this.collection
        .find(filter, { projection: SUMMARY_PROJECTION })
        .sort(NEWEST_FIRST)
        .skip(page.skip)
        .limit(page.limit)
        .toArray(),
      this.collection.countDocuments(filter),
    ]);
    return { items: docs.map(summary), total };
  }

  async getAndCountView(id: string): Promise<NewsArticle | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, published: true },
      { $inc: { views: 1 } },
      { returnDocument: 'after' },
    );
    if (!doc) return null;
    return { ...summary(doc), bodyHtml: doc.bodyHtml, author: doc.author, published: doc.published };
  }

  async neighbours(article: NewsSummary) {
    const base = { product: article.product, published: true };
    const at = article.publishedAt;
    const [newer, older] = await Promise.all([
      this.collection
        .find(
          { ...base, $or: [{ publishedAt: { $gt: at } }, { publishedAt: at, _id: { $gt: article.id } }] },
          { projection: SUMMARY_PROJECTION },
        )
        .sort({ publishedAt: 1, _id: 1 })
        .limit(1)
        .toArray(),
      this.collection
        .find(
          { ...base, $or: [{ publishedAt: { $lt: at } }, { publishedAt: at, _id: { $lt: article.id } }] },
          { projection: SUMMARY_PROJECTION },
        )
        .sort(NEWEST_FIRST)
        .limit(1)
        .toArray(),
    ]);
    return { newer: newer[0] ? summary(newer[0]) : null, older: older[0] ? summary(older[0]) : null };
  }

  async recommend(product: string, excludeId: string, limit: number) {
    const docs = await this.collection
      .find({ product, published: true, _id: { $ne: excludeId } }, { projection: SUMMARY_PROJECTION })
      .sort(NEWEST_FIRST)
      .limit(limit)
      .toArray();
    return docs.map(summary);
  }
}
