import { makeGenericClientConstructor, type ChannelCredentials, type ClientOptions } from '@grpc/grpc-js';
import { LookupServiceService, type LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';

/**
 * The generated LookupService client with Lookup and BatchLookup answers decoded by
 * answer-decoder.ts instead of the generated codec: the same objects, about twice as fast,
 * which is most of a BFF's cost per batch. Use it like the generated client (e.g. through
 * createGrpcClient from @ipdata/common).
 */
export const FastLookupServiceClient = makeGenericClientConstructor(
  {
    ...LookupServiceService,
    lookup: { ...LookupServiceService.lookup, responseDeserialize: decodeLookupResponse },
    batchLookup: { ...LookupServiceService.batchLookup, responseDeserialize: decodeBatchLookupResponse },
  },
  'ipdata.lookup.v1.LookupService',
) as unknown as {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): LookupServiceClient;
  service: typeof LookupServiceService;
  serviceName: string;
};
