import type { Logger } from 'pino';
import type { Clock } from '@ipdata/common';
import type { VersionStore } from '../catalogue/catalogue.js';
import type { DatasetVersion } from '../catalogue/dataset-version.js';
import type { OpenStreams } from '../files/open-streams.js';
import type { LinkStore } from '../links/download-link.js';

/** The version folders of DATASETS_DIR. */
export interface VersionFolders {
  /** Names of the folders directly under DATASETS_DIR. */
  list(): Promise<string[]>;
  /** Deletes one version folder (recursively), only inside DATASETS_DIR. */
  remove(version: string): Promise<void>;
}

export type BlockReason = 'current' | 'open-stream' | 'live-link';

export interface PruneResult {
  deleted: string[];
  blocked: Array<{ version: string; reason: BlockReason }>;
}

/**
 * The versions past the newest `keep` among those both known (published) and on disk, newest
 * first by build time. Folders downloads never heard of are not its to delete (a build in
 * progress, another tool's folder), and neither is the current version, whatever its age.
 */
export function pruneCandidates(known: readonly DatasetVersion[], onDisk: ReadonlySet<string>, keep: number): DatasetVersion[] {
  const present = known
    .filter((version) => onDisk.has(version.version))
    .sort((a, b) => b.builtAt.getTime() - a.builtAt.getTime() || b.publishedAt.getTime() - a.publishedAt.getTime());
  return present.slice(keep);
}

/**
 * Keeps the newest KEEP_VERSIONS versions in DATASETS_DIR. A candidate is skipped while it is the
 * current one, while a stream in this process reads it, or while a link to it has not expired;
 * the periodic run tries again later, so it goes as soon as nothing holds it.
 */
export class VersionPruner {
  constructor(
    private readonly deps: {
      store: VersionStore;
      folders: VersionFolders;
      links: LinkStore;
      streams: OpenStreams;
      clock: Clock;
      keep: number;
    },
    private readonly logger: Logger,
  ) {}

  async runOnce(): Promise<PruneResult> {
    const { store, folders, links, streams, clock } = this.deps;
    const [known, onDisk, current] = await Promise.all([store.listLive(), folders.list(), store.currentVersion()]);
    const candidates = pruneCandidates(known, new Set(onDisk), this.deps.keep);
    const result: PruneResult = { deleted: [], blocked: [] };
    if (candidates.length === 0) return result;
    const linked = await links.versionsWithLiveLinks(clock.now());
    for (const { version } of candidates) {
      const reason: BlockReason | undefined = version === current ? 'current' : linked.has(version) ? 'live-link' : undefined;
      if (reason !== undefined) {
        result.blocked.push({ version, reason });
        continue;
      }
      if (!streams.beginPrune(version)) {
        result.blocked.push({ version, reason: 'open-stream' });
        continue;
      }
      try {
        // Marked first: once the folder starts disappearing, the catalogue must not offer it again.
        await store.markPruned(version, clock.now());
        await folders.remove(version);
      } catch (error) {
        streams.endPrune(version);
        throw error;
      }
      result.deleted.push(version);
    }
    if (result.deleted.length > 0 || result.blocked.length > 0) this.logger.info(result, 'pruned dataset versions');
    return result;
  }
}
