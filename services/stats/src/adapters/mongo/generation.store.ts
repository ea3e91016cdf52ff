import type { Connection } from 'mongoose';
import type { GenerationStore } from '../../counters/rollup-generation.js';

interface GenerationDoc {
  _id: string;
  suffix: string;
  switchedAt: Date;
}

/**
 * The live rollup generation in `stats_state` (`_id: 'generation'`). The collection is shared
 * with the closer's state doc, so it is reached through the driver's collection, not a model.
 */
export class MongoGenerationStore implements GenerationStore {
  constructor(private readonly connection: Connection) {}

  private get collection() {
    return this.connection.collection<GenerationDoc>('stats_state');
  }

  async load(): Promise<string | null> {
    const doc = await this.collection.findOne({ _id: 'generation' });
    return typeof doc?.suffix === 'string' ? doc.suffix : null;
  }

  async save(suffix: string): Promise<void> {
    await this.collection.updateOne({ _id: 'generation' }, { $set: { suffix, switchedAt: new Date() } }, { upsert: true });
  }
}
