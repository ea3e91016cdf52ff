import {
  InvalidArgumentError,
  logHandlerError,
  NotFoundError,
  systemClock,
  toGrpcStatus,
  unary,
  type Clock,
  type Logger,
} from '@ipdata/common';
import type {
  BatchLookupCompactRequest,
  BatchLookupCompactStreamRequest,
  BatchLookupRequest,
  GetDatasetInfoRequest,
  GetDatasetInfoResponse,
  LookupAsnRequest,
  LookupAsnResponse,
  LookupRequest,
} from '@ipdata/proto/lookup/v1/lookup';
import { asnSummaryOf, findAsn } from '../dataset/asn-directory.js';
import { Sink } from '../wire/wire-sink.js';
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
export function lookupHandlers(store: DatasetStore, logger: Logger, clock: Clock = systemClock, streamMaxAgeMs = 5_000) {
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

    batchLookupCompactStream: lookupStream(store, logger, clock, streamMaxAgeMs),

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

/**
 * BatchLookupCompactStream: each request message answered by one BatchLookupCompactStreamResponse
 * (the compact encoder's bytes behind the wrapper's field header), in order, with no per-batch
 * call to set up. A batch that fails ends the stream with its status, as a unary call would fail.
 * After `maxAgeMs` (LOOKUP_STREAM_MAX_AGE_MS) the stream ends with OK, so a shutdown, which waits
 * for open streams, is not held up; what arrives after that is left for the caller to send again
 * on a new stream.
 */
export function lookupStream(store: DatasetStore, logger: Logger, clock: Clock, maxAgeMs: number) {
  return (call: LookupStreamCall): void => {
    const timer = setTimeout(() => finish(), maxAgeMs).unref();
    const finish = (error?: unknown) => {
      clearTimeout(timer);
      if (call.writableEnded) return;
      if (error === undefined) call.end();
      else call.emit('error', toGrpcStatus(error));
    };
    call.on('data', ({ ips }: BatchLookupCompactStreamRequest) => {
      if (call.writableEnded) return;
      let bytes: Buffer;
      try {
        bytes = store.current().compactEncoder.encode(batchQueries(ips), clock.now().getTime());
      } catch (error) {
        logHandlerError(logger, 'BatchLookupCompactStream', error);
        finish(error);
        return;
      }
      call.write(streamResponse(bytes));
    });
    call.on('end', () => finish());
    call.on('cancelled', () => clearTimeout(timer));
  };
}

/** What the stream handler uses of grpc-js' server duplex call. */
interface LookupStreamCall {
  readonly writableEnded: boolean;
  on(event: 'data', listener: (request: BatchLookupCompactStreamRequest) => void): unknown;
  on(event: 'end' | 'cancelled', listener: () => void): unknown;
  write(response: Buffer): unknown;
  end(): unknown;
  /** grpc-js ends the call with this status. */
  emit(event: 'error', status: ReturnType<typeof toGrpcStatus>): unknown;
}

/** BatchLookupCompactStreamResponse { batch = 1 } around an encoded BatchLookupCompactResponse. */
function streamResponse(batch: Buffer): Buffer {
  const sink = new Sink(batch.length + 6);
  sink.raw(0x0a, batch); // field 1, length-delimited
  return sink.take();
}
