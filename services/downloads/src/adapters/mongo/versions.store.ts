import type { Collection, Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { VersionStore } from '../../catalogue/catalogue.js';
import type { DatasetVersion } from '../../catalogue/dataset-version.js';

type VersionDoc = Omit<DatasetVersion, 'version'> & { _id: string; prunedAt?: Date };
interface PointerDoc {
  _id: string;
  version: string;
  builtAt: Date;
}

/**
 * `dataset_versions` (one document per known version, keyed by its name) and `catalogue_state`
 * (`_id: "current"`). Both are tiny and read by _id, which FerretDB looks up directly.
 */
export class MongoVersionStore implements VersionStore {
  private readonly versions: Collection<VersionDoc>;
  private readonly state: Collection<PointerDoc>;

  constructor(connection: Connection) {
    this.versions = connection.collection<VersionDoc>('dataset_versions');
    this.state = connection.collection<PointerDoc>('catalogue_state');
  }

  async save(version: DatasetVersion): Promise<void> {
    const { version: name, ...fields } = version;
    // $setOnInsert: a version's facts never change, and its first publishedAt is the one that counts.
    await this.versions.updateOne({ _id: name }, { $setOnInsert: fields }, { upsert: true });
  }

  async get(version: string): Promise<DatasetVersion | null> {
    const doc = await this.versions.findOne({ _id: version });
    return doc ? toVersion(doc) : null;
  }

  async listLive(): Promise<DatasetVersion[]> {
    const docs = await this.versions.find({}).toArray();
    return docs.filter((doc) => doc.prunedAt === undefined || doc.prunedAt === null).map(toVersion);
  }

  async offerCurrent(version: DatasetVersion): Promise<void> {
    try {
      // A replayed or late event of an older build never moves the pointer back; when the stored
      // one is newer the filter misses and the upsert's insert collides on _id: nothing changes.
      await this.state.updateOne(
        { _id: 'current', builtAt: { $lte: version.builtAt } },
        { $set: { version: version.version, builtAt: version.builtAt } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async currentVersion(): Promise<string | null> {
    return (await this.state.findOne({ _id: 'current' }))?.version ?? null;
  }

  async markPruned(version: string, at: Date): Promise<void> {
    await this.versions.updateOne({ _id: version }, { $set: { prunedAt: at } });
  }
}

function toVersion(doc: VersionDoc): DatasetVersion {
  return { version: doc._id, builtAt: doc.builtAt, publishedAt: doc.publishedAt, files: doc.files };
}
