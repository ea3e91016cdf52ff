export { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';
export {
  compactAnswerInfo,
  compactBatchItems,
  decodeBatchLookupCompactResponse,
  decodeCompactBatch,
  type CompactAnswer,
  type CompactBatch,
  type CompactPartKind,
} from './compact-batch-decoder.js';
export {
  createLookupClient,
  FastLookupServiceClient,
  LOOKUP_CLIENT_MAX_RECEIVE_BYTES,
  type TunedLookupServiceClient,
} from './lookup-client.js';
export { BatchLookupStream } from './lookup-stream.js';
export { DecodeError } from '../wire/wire-cursor.js';
export { checkAddress, type CheckedAddress } from './address-check.js';
