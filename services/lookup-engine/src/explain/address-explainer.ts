import type { Logger } from '@ipdata/common';
import { LookupResponse, ReservedReason, type ExplainAddressResponse, type SourceAnswer } from '@ipdata/proto/lookup/v1/lookup';
import type { ActiveDataset } from '../dataset/dataset-store.js';
import { privacyReasons } from './privacy-reasons.js';
import { sourceAddress } from './source-address.js';
import type { ExplainedSource } from './source-readers.js';

export type SourceOpener = () => Promise<ExplainedSource[]>;

/**
 * ExplainAddress: the merged answer next to each source's own answer. The source readers are
 * opened on the first call and kept (a failed open is retried on the next call).
 */
export class AddressExplainer {
  private sources: Promise<ExplainedSource[]> | undefined;

  constructor(
    private readonly open: SourceOpener,
    private readonly logger: Logger,
  ) {}

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
    if (this.sources === undefined) {
      const started = performance.now();
      this.sources = this.open().then(
        (sources) => {
          this.logger.info({ ms: Math.round(performance.now() - started) }, 'explain source readers opened');
          return sources;
        },
        (error: unknown) => {
          this.sources = undefined;
          throw error;
        },
      );
    }
    return this.sources;
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
