export { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';
export { decodeBatchLookupCompactResponse } from './compact-batch-decoder.js';
export { FastLookupServiceClient } from './lookup-client.js';
export { DecodeError } from '../wire/wire-cursor.js';
