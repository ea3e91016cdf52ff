import type { Logger } from 'pino';
import { errorText } from '@ipdata/common';
import { CATALOGUE_ENTRIES, type CatalogueEntry } from './catalogue-files.js';
import type { DatasetVersion, VersionFile } from './dataset-version.js';

/** Known versions and the current pointer (Mongo: dataset_versions). */
export interface VersionStore {
  save(version: DatasetVersion): Promise<void>;
  get(version: string): Promise<DatasetVersion | null>;
  /** Every known version that is not pruned (a handful: KEEP_VERSIONS plus what is blocked). */
  listLive(): Promise<DatasetVersion[]>;
  /** Makes `version` current unless the current one was built later. */
  offerCurrent(version: DatasetVersion): Promise<void>;
  currentVersion(): Promise<string | null>;
  markPruned(version: string, at: Date): Promise<void>;
}

/** The version folders on disk (DATASETS_DIR): the `current` pointer and each folder's manifest. */
export interface VersionSource {
  /** The version `<DATASETS_DIR>/current` names, or null when there is none. */
  currentPointer(): Promise<string | null>;
  /** Reads and checks `<DATASETS_DIR>/<version>/manifest.json`; throws when missing or invalid. */
  readVersion(version: string, publishedAt: Date): Promise<DatasetVersion>;
}

/** One downloadable file of a version: the catalogue entry and the manifest's facts about it. */
export interface CatalogueFile {
  entry: CatalogueEntry;
  version: DatasetVersion;
  file: VersionFile;
  sample: VersionFile | undefined;
}

/**
 * The catalogue follows dataset.published.v1 (and `<DATASETS_DIR>/current` at start, so a fresh
 * service has one before any event). Versions are stored in Mongo, so every replica answers the
 * same current version whichever replica consumed the event; a version's facts never change, so
 * they are cached in memory by name.
 */
export class Catalogue {
  private readonly cache = new Map<string, DatasetVersion>();

  constructor(
    private readonly deps: { store: VersionStore; source: VersionSource; now: () => Date },
    private readonly logger: Logger,
  ) {}

  /** A version was published: read its manifest, remember it, make it current if it is the newest. */
  async publish(versionName: string): Promise<DatasetVersion> {
    const known = await this.deps.store.get(versionName);
    const version = known ?? (await this.deps.source.readVersion(versionName, this.deps.now()));
    if (!known) await this.deps.store.save(version);
    await this.deps.store.offerCurrent(version);
    this.logger.info({ version: version.version, builtAt: version.builtAt }, 'dataset version known');
    return version;
  }

  /** Start-up: the version `current` names joins the catalogue; a missing or bad one is logged, not fatal. */
  async bootstrap(): Promise<void> {
    let pointer: string | null;
    try {
      pointer = await this.deps.source.currentPointer();
    } catch (error) {
      this.logger.warn({ reason: errorText(error) }, 'cannot read the current dataset pointer');
      return;
    }
    if (pointer === null) {
      this.logger.info('no current dataset version on disk yet');
      return;
    }
    try {
      await this.publish(pointer);
    } catch (error) {
      this.logger.warn({ version: pointer, reason: errorText(error) }, 'the current dataset version cannot be read');
    }
  }

  async current(): Promise<DatasetVersion | undefined> {
    const name = await this.deps.store.currentVersion();
    return name === null ? undefined : this.version(name);
  }

  async version(name: string): Promise<DatasetVersion | undefined> {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const stored = await this.deps.store.get(name);
    if (stored) this.cache.set(name, stored);
    return stored ?? undefined;
  }

  /** The catalogue entries a version has files for, in table order. */
  static filesOf(version: DatasetVersion): CatalogueFile[] {
    const byName = new Map(version.files.map((file) => [file.name, file]));
    return CATALOGUE_ENTRIES.flatMap((entry) => {
      const file = byName.get(entry.fileName);
      if (!file) return [];
      const sample = entry.sampleFileName === undefined ? undefined : byName.get(entry.sampleFileName);
      return [{ entry, version, file, sample }];
    });
  }
}
