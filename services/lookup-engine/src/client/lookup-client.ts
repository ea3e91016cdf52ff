import {
  makeGenericClientConstructor,
  Metadata,
  status,
  type ChannelCredentials,
  type CallOptions,
  type ClientOptions,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { createGrpcClient, type GrpcClientConfig } from '@ipdata/common';
import { makeStringPrototypeFast } from '@ipdata/common/ip';
import { LookupServiceService, type BatchLookupRequest, type LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { decodeLookupResponse } from './answer-decoder.js';
import { decodeBatchLookupCompactResponse, decodeCompactBatch, type CompactBatch } from './compact-batch-decoder.js';
import { encodeBatchLookupRequest } from './request-encoder.js';

type Callback = (error: ServiceError | null, response?: unknown) => void;

const TunedClient = makeGenericClientConstructor(
  {
    ...LookupServiceService,
    lookup: { ...LookupServiceService.lookup, responseDeserialize: decodeLookupResponse },
    // Decoded by FastClient.batchLookup below, not by grpc-js.
    batchLookup: {
      ...LookupServiceService.batchLookupCompact,
      requestSerialize: encodeBatchLookupRequest,
      responseDeserialize: (bytes: Buffer): Buffer => bytes,
    },
    // Answered by BatchLookupStream (lookup-stream.ts), which takes the bytes apart itself.
    batchLookupCompactStream: {
      ...LookupServiceService.batchLookupCompactStream,
      requestSerialize: encodeBatchLookupRequest,
      responseDeserialize: (bytes: Buffer): Buffer => bytes,
    },
    // The same call, answered as the CompactBatch (parts and answers as sent).
    batchLookupParts: {
      ...LookupServiceService.batchLookupCompact,
      requestSerialize: encodeBatchLookupRequest,
      responseDeserialize: (bytes: Buffer): Buffer => bytes,
    },
  },
  'ipdata.lookup.v1.LookupService',
);

class FastClient extends TunedClient {
  constructor(...args: ConstructorParameters<typeof TunedClient>) {
    super(...args);
    // Clients are made once the process's modules are loaded: requests are written with charCodeAt.
    makeStringPrototypeFast();
  }

  /**
   * BatchLookup through BatchLookupCompact, answered with BatchLookupResponse objects. The answer
   * is decoded on its own event-loop turn, and the call keeps no reference to the caller's
   * callback once it has run: grpc-js keeps a finished call reachable for a while, and several
   * answers often complete in one socket read, so decoding them in the network callback kept
   * several decoded batches (1 MB+ of small objects each) alive through young-generation
   * collections, which then copied and promoted them (measured: ~4 MB promoted per scavenge
   * and ~40% of the client's CPU time).
   */
  batchLookup(...args: unknown[]): ClientUnaryCall {
    return this.decodedCall('batchLookup', decodeBatchLookupCompactResponse, args);
  }

  /** BatchLookup answered as the CompactBatch: for callers that render answers from their parts. */
  batchLookupParts(...args: unknown[]): ClientUnaryCall {
    return this.decodedCall('batchLookupParts', decodeCompactBatch, args);
  }

  private decodedCall(
    method: 'batchLookup' | 'batchLookupParts',
    decode: (bytes: Buffer) => unknown,
    args: unknown[],
  ): ClientUnaryCall {
    const last = args.length - 1;
    let callback = args[last] as Callback | undefined;
    args[last] = (error: ServiceError | null, bytes?: Buffer) => {
      const deliver = callback as Callback;
      callback = undefined;
      setImmediate(() => {
        if (error !== null || bytes === undefined) return deliver(error);
        let response;
        try {
          response = decode(bytes);
        } catch (failure) {
          return deliver(parseError(failure));
        }
        deliver(null, response);
      });
    };
    return (super[method] as (...a: unknown[]) => ClientUnaryCall)(...args);
  }
}

/** A ServiceError as grpc-js reports one: message `<code> <NAME>: <details>`, empty metadata. */
export function serviceError(code: status, details: string): ServiceError {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: new Metadata() });
}

/** What grpc-js reports when a deserializer throws: INTERNAL, "Response message parsing error". */
export function parseError(failure: unknown): ServiceError {
  return serviceError(
    status.INTERNAL,
    `Response message parsing error: ${failure instanceof Error ? failure.message : String(failure)}`,
  );
}

/**
 * The generated LookupService client, tuned for the BFFs' hot paths; use it like the generated
 * client (e.g. through createGrpcClient from @ipdata/common):
 * - `batchLookup` travels as BatchLookupCompact (parts shared by many answers sent once per
 *   response, ranges as integers: a third of the bytes) and answers with the BatchLookupResponse
 *   objects BatchLookup would give. Answers of one response share their nested asn, currency,
 *   proxy_data and time_zone objects: treat them as read-only (copy before changing one);
 * - `lookup` answers are decoded by answer-decoder.ts: the generated codec's objects, faster.
 */
export const FastLookupServiceClient = FastClient as unknown as {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): TunedLookupServiceClient;
  service: typeof LookupServiceService;
  serviceName: string;
};

/** The generated client's calls plus `batchLookupParts` (BatchLookup answered as a CompactBatch). */
export interface TunedLookupServiceClient extends LookupServiceClient {
  batchLookupParts(
    request: BatchLookupRequest,
    metadata: Metadata,
    options: Partial<CallOptions>,
    callback: (error: ServiceError | null, response: CompactBatch) => void,
  ): ClientUnaryCall;
}

/**
 * Receive limit of the lookup client: the one large limit of the platform (every other client
 * and server keeps the 1 MiB default). A 1,000-address BatchLookup answer measured on the
 * 2026.09 dataset: at most 367 KB for random addresses (BatchLookupCompact: 103 KB), 1.25 MB for
 * 1,000 copies of the largest answer found (1,252 bytes); the bound for 1,000 answers that each
 * carry the largest record and the most fragmented range (95 networks, 2.6 KB) is about 4 MB.
 */
export const LOOKUP_CLIENT_MAX_RECEIVE_BYTES = 8 * 1024 * 1024;

/**
 * The tuned client with the caller's mTLS identity (`tls: grpcTlsFromConfig(config)`), deadline
 * and the batch receive limit. Credentials are set once on the channel: nothing is added per call.
 */
export function createLookupClient(config: GrpcClientConfig): TunedLookupServiceClient {
  return createGrpcClient(FastLookupServiceClient, { maxReceiveMessageBytes: LOOKUP_CLIENT_MAX_RECEIVE_BYTES, ...config });
}
