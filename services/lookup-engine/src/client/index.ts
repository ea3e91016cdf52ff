export { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';
export {
  ANSWER_ERROR,
  ANSWER_IPV4,
  ANSWER_IPV6,
  compactAnswerInfo,
  compactBatchItems,
  decodeBatchLookupCompactResponse,
  decodeCompactBatch,
  type CompactBatch,
  type CompactColumns,
  type CompactPartKind,
  type Ipv6Range,
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
