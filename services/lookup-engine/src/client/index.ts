export { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';
export { decodeBatchLookupCompactResponse } from './compact-batch-decoder.js';
export { createLookupClient, FastLookupServiceClient, LOOKUP_CLIENT_MAX_RECEIVE_BYTES } from './lookup-client.js';
export { DecodeError } from '../wire/wire-cursor.js';
export { checkAddress, type CheckedAddress } from './address-check.js';
