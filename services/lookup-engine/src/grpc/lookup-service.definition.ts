import { LookupServiceService } from '@ipdata/proto/lookup/v1/lookup';

/**
 * The generated LookupService definition with one change: Lookup, BatchLookup,
 * BatchLookupCompact and BatchLookupCompactStream handlers return the response bytes already encoded (AnswerEncoder,
 * CompactBatchEncoder), so serialisation is the identity
 * instead of building and re-encoding message objects. Clients use the generated definition
 * unchanged; the bytes on the wire are the same messages.
 */
export const fastLookupServiceDefinition = {
  ...LookupServiceService,
  lookup: { ...LookupServiceService.lookup, responseSerialize: (value: Buffer): Buffer => value },
  batchLookup: { ...LookupServiceService.batchLookup, responseSerialize: (value: Buffer): Buffer => value },
  batchLookupCompact: { ...LookupServiceService.batchLookupCompact, responseSerialize: (value: Buffer): Buffer => value },
  batchLookupCompactStream: {
    ...LookupServiceService.batchLookupCompactStream,
    responseSerialize: (value: Buffer): Buffer => value,
  },
};
