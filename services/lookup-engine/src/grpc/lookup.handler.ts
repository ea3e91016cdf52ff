import { InvalidArgumentError, NotFoundError, systemClock, unary, type Clock, type Logger } from '@ipdata/common';
import type {
  BatchLookupCompactRequest,
  BatchLookupRequest,
  GetDatasetInfoRequest,
  GetDatasetInfoResponse,
  LookupAsnRequest,
  LookupAsnResponse,
  LookupRequest,
} from '@ipdata/proto/lookup/v1/lookup';
import { asnSummaryOf, findAsn } from '../dataset/asn-directory.js';
import type { DatasetStore } from '../dataset/dataset-store.js';

export const MAX_BATCH = 1_000;
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1_000;

/** The addresses of a batch as looked up (trimmed); more than MAX_BATCH is refused. */
function batchQueries(ips: string[]): string[] {
  if (ips.length > MAX_BATCH) {
    throw new InvalidArgumentError(`at most ${MAX_BATCH} addresses per batch, got ${ips.length}`, {
      reason: 'batch_too_large',
    });
  }
  return ips.map((ip) => ip.trim());
}

/** gRPC handlers of ipdata.lookup.v1.LookupService; thin: resolve, encode, map errors. */
export function lookupHandlers(store: DatasetStore, logger: Logger, clock: Clock = systemClock) {
  return {
    lookup: unary<LookupRequest, Buffer>(logger, 'Lookup', async ({ ip }) =>
      store.current().encoder.encodeLookup(ip.trim(), clock.now().getTime()),
    ),

    batchLookup: unary<BatchLookupRequest, Buffer>(logger, 'BatchLookup', async ({ ips }) =>
      store.current().encoder.encodeBatch(batchQueries(ips), clock.now().getTime()),
    ),

    batchLookupCompact: unary<BatchLookupCompactRequest, Buffer>(logger, 'BatchLookupCompact', async ({ ips }) =>
      store.current().compactEncoder.encode(batchQueries(ips), clock.now().getTime()),
    ),

    lookupAsn: unary<LookupAsnRequest, LookupAsnResponse>(logger, 'LookupAsn', async ({ asn, page, pageSize }) => {
      const size = pageSize === 0 ? DEFAULT_PAGE_SIZE : pageSize;
      if (size > MAX_PAGE_SIZE)
        throw new InvalidArgumentError(`page_size must be at most ${MAX_PAGE_SIZE}`, { reason: 'page_too_large' });
      const details = findAsn(store.current().dataset.view, asn, page, size);
      if (details === undefined) throw new NotFoundError(`unknown ASN: AS${asn}`, { reason: 'asn_not_found' });
      return {
        ...asnSummaryOf(details),
        prefixes: details.prefixes,
        page,
        pageSize: size,
        totalPrefixes: details.totalPrefixes,
      };
    }),

    getDatasetInfo: unary<GetDatasetInfoRequest, GetDatasetInfoResponse>(logger, 'GetDatasetInfo', async () => {
      const { summary } = store.current().dataset;
      return {
        version: summary.version,
        builtAt: summary.builtAt,
        loadedAt: summary.loadedAt,
        ipv4Ranges: summary.ipv4Ranges,
        ipv6Ranges: summary.ipv6Ranges,
        records: summary.records,
        sources: summary.sources.map((source) => ({ ...source })),
      };
    }),
  };
}
