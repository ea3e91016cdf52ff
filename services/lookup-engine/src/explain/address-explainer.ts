import type { Logger } from '@ipdata/common';
import { LookupResponse, ReservedReason, type ExplainAddressResponse, type SourceAnswer } from '@ipdata/proto/lookup/v1/lookup';
import type { ActiveDataset } from '../dataset/dataset-store.js';
import { IdleHeld } from './idle-held.js';
import { privacyReasons } from './privacy-reasons.js';
import { sourceAddress } from './source-address.js';
import type { ExplainedSource } from './source-readers.js';

export type SourceOpener = () => Promise<ExplainedSource[]>;

/** Source readers are dropped after this long without an ExplainAddress (README "ExplainAddress"). */
export const EXPLAIN_READERS_IDLE_MS = 10 * 60 * 1000;

/**
 * ExplainAddress: the merged answer next to each source's own answer. The source readers (about
 * 200 MiB) are opened on the first call, kept while calls come, and dropped after
 * EXPLAIN_READERS_IDLE_MS without one (a failed open is retried on the next call).
 */
export class AddressExplainer {
  private readonly sources: IdleHeld<ExplainedSource[]>;

  constructor(
    open: SourceOpener,
    private readonly logger: Logger,
    idleMs = EXPLAIN_READERS_IDLE_MS,
  ) {
    this.sources = new IdleHeld(
      async () => {
        const started = performance.now();
        const sources = await open();
        this.logger.info({ ms: Math.round(performance.now() - started) }, 'explain source readers opened');
        return sources;
      },
      idleMs,
      () => this.logger.info('explain source readers dropped (idle)'),
    );
  }

  async explain(active: ActiveDataset, query: string, nowMs: number): Promise<ExplainAddressResponse> {
    const { dataset, encoder } = active;
    // Lookup's own bytes decoded, so `info` is exactly what Lookup answers (malformed input
    // throws the same INVALID_ARGUMENT).
    const info = LookupResponse.decode(encoder.encodeLookup(query, nowMs)).info;
    const resolution = dataset.resolve(query);
    const response: ExplainAddressResponse = {
      info,
      datasetVersion: dataset.summary.version,
      privacy: privacyReasons(resolution.record),
      sources: [],
    };
    const address = sourceAddress(query);
    if (resolution.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED || address === null) return response;
    const sources = await this.readers();
    response.sources = ordered(sources, dataset.summary.sources).map((source): SourceAnswer => {
      const reading = source.read(address);
      return {
        source: source.name,
        datasetSourceVersion: dataset.summary.sources.find(({ name }) => name === source.name)?.version ?? '',
        readVersion: source.readVersion,
        network: reading.network ?? undefined,
        fields: reading.fields,
      };
    });
    return response;
  }

  private readers(): Promise<ExplainedSource[]> {
    return this.sources.get();
  }

  /** Drops the readers now (engine shutdown). */
  release(): void {
    this.sources.release();
  }
}

/** The sources in the order of the dataset's sources; any the dataset does not name go last. */
function ordered(sources: ExplainedSource[], datasetSources: ReadonlyArray<{ name: string }>): ExplainedSource[] {
  const rank = (name: string) => {
    const at = datasetSources.findIndex((source) => source.name === name);
    return at < 0 ? datasetSources.length : at;
  };
  return [...sources].sort((a, b) => rank(a.name) - rank(b.name));
}
