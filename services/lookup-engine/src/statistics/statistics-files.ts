import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorText, type Logger } from '@ipdata/common';
import { parseStatistics, STATISTICS_FILE } from '@ipdata/dataset/statistics';
import { ServedStatistics } from './served-statistics.js';

export type StatisticsLoad = { statistics: ServedStatistics; problem?: undefined } | { statistics?: undefined; problem: string };

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The statistics of the version in `folder`, or why there are none: the file is missing (a
 * version built before statistics existed), unreadable, malformed, or of another version.
 */
export async function readVersionStatistics(folder: string, version: string): Promise<StatisticsLoad> {
  let text: string;
  try {
    text = await readFile(join(folder, STATISTICS_FILE), 'utf8');
  } catch (error) {
    if (isMissing(error))
      return { problem: `dataset version ${version} has no ${STATISTICS_FILE} (built before statistics existed; rebuild it)` };
    return { problem: `${STATISTICS_FILE} of ${version} is unreadable: ${errorText(error)}` };
  }
  try {
    const parsed = parseStatistics(text);
    if (parsed.datasetVersion !== version)
      return { problem: `${STATISTICS_FILE} in ${version} belongs to version ${parsed.datasetVersion}` };
    return { statistics: new ServedStatistics(parsed) };
  } catch (error) {
    return { problem: `${STATISTICS_FILE} of ${version} refused: ${errorText(error)}` };
  }
}

interface CacheEntry {
  modified: number;
  load: StatisticsLoad;
}

/**
 * The statistics of every version folder under DATASETS_DIR, for the trends. Read lazily when
 * asked, each file once: a version folder does not change (a rebuild with --force replaces the
 * file, which its modification time tells); folders that disappear (pruned) leave the cache.
 * Temporary folders (".tmp-…") and versions without statistics are left out.
 */
export class StatisticsHistory {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
  ) {}

  /** Every version with statistics, oldest first (by built_at, then version). */
  async versions(): Promise<ServedStatistics[]> {
    let names: string[];
    try {
      const entries = await readdir(this.root, { withFileTypes: true });
      names = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    for (const name of this.cache.keys()) if (!names.includes(name)) this.cache.delete(name);

    const found: ServedStatistics[] = [];
    for (const name of names) {
      let modified: number;
      try {
        modified = (await stat(join(this.root, name, STATISTICS_FILE))).mtimeMs;
      } catch {
        this.cache.delete(name);
        continue;
      }
      let entry = this.cache.get(name);
      if (entry === undefined || entry.modified !== modified) {
        entry = { modified, load: await readVersionStatistics(join(this.root, name), name) };
        this.cache.set(name, entry);
        if (entry.load.problem !== undefined)
          this.logger.warn({ version: name, reason: entry.load.problem }, 'statistics left out of the history');
      }
      if (entry.load.statistics !== undefined) found.push(entry.load.statistics);
    }
    return found.sort(
      (a, b) => a.builtAt.getTime() - b.builtAt.getTime() || (a.version < b.version ? -1 : a.version > b.version ? 1 : 0),
    );
  }
}
