import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Component, Logger } from '@ipdata/common';
import { errorText, UnavailableError } from '@ipdata/common';
import { DATASET_FILE } from '@ipdata/dataset/format';
import { AnswerEncoder } from '../lookup/answer-encoder.js';
import { CompactBatchEncoder } from '../lookup/compact-batch-encoder.js';
import { readVersionStatistics } from '../statistics/statistics-files.js';
import type { ServedStatistics } from '../statistics/served-statistics.js';
import { LoadedDataset } from './loaded-dataset.js';

/** What a lookup needs from one dataset: swapped together as one reference. */
export interface ActiveDataset {
  dataset: LoadedDataset;
  encoder: AnswerEncoder;
  compactEncoder: CompactBatchEncoder;
  /** statistics.json of the same version folder, swapped with it; absent when the version has none. */
  statistics: ServedStatistics | undefined;
  /** Why `statistics` is absent (missing file, refused file), for the answer and the log. */
  statisticsProblem: string | undefined;
}

/**
 * The newest dataset folder under `root`: the one named by `root/current` (a symlink or a file
 * holding the version) when present, else the greatest version folder that has a dataset file.
 */
export function newestDatasetFile(root: string): string | undefined {
  const pointer = join(root, 'current');
  if (existsSync(pointer)) {
    const target = statSync(pointer).isDirectory() ? pointer : join(root, readFileSync(pointer, 'utf8').trim());
    if (existsSync(join(target, DATASET_FILE))) return join(target, DATASET_FILE);
  }
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => name !== 'current' && !name.startsWith('.') && existsSync(join(root, name, DATASET_FILE)))
    .sort();
  const newest = versions.at(-1);
  return newest === undefined ? undefined : join(root, newest, DATASET_FILE);
}

/**
 * Holds the dataset in service. A new one is loaded beside the old one and swapped in with a
 * single assignment; a file that fails to load is refused with a logged reason and the old
 * dataset keeps serving.
 */
export class DatasetStore implements Component {
  readonly name = 'dataset';
  private active: ActiveDataset | undefined;
  private loading: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
    private readonly onSwap: (active: ActiveDataset) => void = () => undefined,
  ) {}

  /** Loads the newest dataset on disk; with none yet, the service stays not ready until one arrives. */
  async start(): Promise<void> {
    const file = newestDatasetFile(this.root);
    if (file === undefined) {
      this.logger.warn({ root: this.root }, 'no dataset found yet; not ready until one is published (run `make dataset`)');
      return;
    }
    await this.load(file);
  }

  async shutdown(): Promise<void> {
    await this.loading;
  }

  async isReady(): Promise<boolean> {
    return this.active !== undefined;
  }

  /** The dataset to answer from; calls keep the instance they got even if a swap happens meanwhile. */
  current(): ActiveDataset {
    const active = this.active;
    if (active === undefined) throw new UnavailableError('no dataset is loaded yet', { reason: 'dataset_not_loaded' });
    return active;
  }

  get version(): string | undefined {
    return this.active?.dataset.summary.version;
  }

  get summary(): LoadedDataset['summary'] | undefined {
    return this.active?.dataset.summary;
  }

  /** Loads `file` and swaps it in; returns false (old dataset kept) when the file is refused. Loads run one at a time. */
  load(file: string): Promise<boolean> {
    this.loading = this.loading.then(() => this.loadNow(file));
    return this.loading;
  }

  reloadNewest(): Promise<boolean> {
    const file = newestDatasetFile(this.root);
    if (file === undefined) {
      this.logger.warn({ root: this.root }, 'reload requested but no dataset found');
      return Promise.resolve(false);
    }
    return this.load(file);
  }

  private async loadNow(file: string): Promise<boolean> {
    const started = performance.now();
    try {
      const dataset = await LoadedDataset.fromFile(file);
      // Statistics are a side file: without them (an older version) lookups still serve and
      // only the statistics calls answer UNAVAILABLE with the reason.
      const statistics = await readVersionStatistics(dirname(file), dataset.summary.version);
      if (statistics.problem !== undefined)
        this.logger.warn({ file, reason: statistics.problem }, 'dataset statistics not available');
      const active: ActiveDataset = {
        dataset,
        encoder: new AnswerEncoder(dataset),
        compactEncoder: new CompactBatchEncoder(dataset),
        statistics: statistics.statistics,
        statisticsProblem: statistics.problem,
      };
      const previous = this.active?.dataset.summary.version;
      this.active = active;
      this.onSwap(active);
      this.logger.info(
        {
          file,
          version: dataset.summary.version,
          previous,
          ipv4Ranges: dataset.summary.ipv4Ranges,
          ipv6Ranges: dataset.summary.ipv6Ranges,
          treeMiB: Math.round(dataset.treeBytes / 2 ** 20),
          ms: Math.round(performance.now() - started),
        },
        'dataset loaded and swapped in',
      );
      return true;
    } catch (error) {
      this.logger.error(
        { file, reason: errorText(error), serving: this.version ?? null },
        'dataset refused; keeping the current one',
      );
      return false;
    }
  }
}
