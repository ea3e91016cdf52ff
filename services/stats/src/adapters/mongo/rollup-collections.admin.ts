import type { Connection } from 'mongoose';
import { CARRIED_PREFIX, CARRY_LOOKBACK_MS } from '../../closing/carry.js';
import { decodeCounterKey } from '../../counters/counter-delta.js';
import type { RollupCollections } from '../../counters/rollup-generation.js';
import type { RollupCollectionsAdmin } from '../../replay/replay-ports.js';

type IndexSpec = Readonly<Record<string, 1 | -1>>;

export interface RollupIndexes {
  usage: readonly IndexSpec[];
  trends: readonly IndexSpec[];
}

interface CounterDoc {
  _id: string;
  periodStart: Date;
  c?: Record<string, number>;
  [field: string]: unknown;
}

const COPY_CHUNK = 1_000;

function isNamespaceMissing(error: unknown): boolean {
  const { code, codeName } = error as { code?: number; codeName?: string };
  return code === 26 || codeName === 'NamespaceNotFound';
}

/** Fresh generations of the rollup collections for a replay, and the copies a swap needs. */
export class MongoRollupCollectionsAdmin implements RollupCollectionsAdmin {
  constructor(
    private readonly connection: Connection,
    private readonly indexes: RollupIndexes,
  ) {}

  async prepare(collections: RollupCollections): Promise<void> {
    await this.drop(collections);
    for (const spec of this.indexes.usage) await this.connection.collection(collections.usage).createIndex({ ...spec });
    for (const spec of this.indexes.trends) await this.connection.collection(collections.trends).createIndex({ ...spec });
  }

  async copyBefore(from: RollupCollections, to: RollupCollections, before: Date): Promise<number> {
    let copied = 0;
    for (const kind of ['usage', 'trends'] as const) {
      const cursor = this.connection.collection<CounterDoc>(from[kind]).find({ periodStart: { $lt: before } });
      const target = this.connection.collection<CounterDoc>(to[kind]);
      let chunk: CounterDoc[] = [];
      for await (const doc of cursor) {
        chunk.push(doc);
        if (chunk.length >= COPY_CHUNK) {
          await target.insertMany(chunk, { ordered: false });
          copied += chunk.length;
          chunk = [];
        }
      }
      if (chunk.length > 0) {
        await target.insertMany(chunk, { ordered: false });
        copied += chunk.length;
      }
    }
    return copied;
  }

  async copyOpenCarries(fromUsage: string, toUsage: string, openFrom: Date): Promise<number> {
    const cursor = this.connection
      .collection<CounterDoc>(fromUsage)
      .find({ g: 'h', periodStart: { $gte: new Date(openFrom.getTime() - CARRY_LOOKBACK_MS), $lt: openFrom } });
    const target = this.connection.collection<CounterDoc>(toUsage);
    let copied = 0;
    for await (const doc of cursor) {
      const carries: Record<string, number> = {};
      for (const [field, amount] of Object.entries(doc.c ?? {})) {
        const into = decodeCounterKey(CARRIED_PREFIX, field);
        if (into !== null && Date.parse(into) >= openFrom.getTime()) carries[`c.${field}`] = amount;
      }
      if (Object.keys(carries).length === 0) continue;
      const { _id, c, ...rest } = doc;
      void c;
      // The replay should have made the document (the carried event is in the ledger); if not, it is created with its dims.
      await target.updateOne({ _id }, { $set: carries, $setOnInsert: rest }, { upsert: true });
      copied += Object.keys(carries).length;
    }
    return copied;
  }

  async drop(collections: RollupCollections): Promise<void> {
    for (const name of [collections.usage, collections.trends]) {
      await this.connection.dropCollection(name).catch((error: unknown) => {
        if (!isNamespaceMissing(error)) throw error;
      });
    }
  }
}
