/**
 * Which collections serve the rollups now. A replay (replay/rollup-replay.ts) rebuilds the
 * rollups into fresh collections `<name>_g<id>` and then switches this holder: writers (the
 * ledger handler's targets) and readers (queries, closing, reconciliation) ask it for the names
 * per round or per call (`usageCollection`, `trendsCollection`), so a swap needs no restart.
 * usage_carry and usage_closed are billing facts and never change generation.
 */

/** The live collection names. */
export interface RollupCollections {
  usage: string;
  trends: string;
}

/** Port: where the live suffix is kept (adapters/mongo/generation.store.ts, `stats_state` `_id: 'generation'`). */
export interface GenerationStore {
  /** The persisted suffix, or null before the first switch. */
  load(): Promise<string | null>;
  save(suffix: string): Promise<void>;
}

export const BASE_COLLECTIONS: Readonly<RollupCollections> = Object.freeze({ usage: 'usage_rollups', trends: 'trend_rollups' });

/** '' (the first generation) or `_g` followed by letters, digits, '-' or '_' (safe in a collection name). */
const SUFFIX = /^(?:_g[A-Za-z0-9_-]{1,40})?$/;

export function isGenerationSuffix(suffix: string): boolean {
  return SUFFIX.test(suffix);
}

/** The collection names of a generation. */
export function collectionsFor(suffix: string): RollupCollections {
  if (!isGenerationSuffix(suffix)) throw new RangeError(`not a generation suffix: ${JSON.stringify(suffix)}`);
  return { usage: BASE_COLLECTIONS.usage + suffix, trends: BASE_COLLECTIONS.trends + suffix };
}

/** A new suffix for a replay: time-ordered, so listing collections shows the generations in order. */
export function newGenerationSuffix(at: Date, random: () => number = Math.random): string {
  const stamp = at
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14);
  return `_g${stamp}${Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;
}

export class RollupGeneration {
  private suffixNow = '';
  private collections: RollupCollections = collectionsFor('');

  constructor(private readonly store: GenerationStore) {}

  /** Reads the persisted generation (start-up, before any consumer or query runs). */
  async load(): Promise<void> {
    this.set((await this.store.load()) ?? '');
  }

  current(): RollupCollections {
    return this.collections;
  }

  suffix(): string {
    return this.suffixNow;
  }

  /** For stores and readers that resolve their collection per call. */
  readonly usageCollection = (): string => this.collections.usage;
  readonly trendsCollection = (): string => this.collections.trends;

  /**
   * Makes `suffix` live: persisted first, so a crash right after cannot bring the old generation
   * back at the next start while the new one already took writes.
   */
  async switchTo(suffix: string): Promise<void> {
    collectionsFor(suffix); // validates before anything is persisted
    await this.store.save(suffix);
    this.set(suffix);
  }

  private set(suffix: string): void {
    this.collections = collectionsFor(suffix);
    this.suffixNow = suffix;
  }
}
