import fc from 'fast-check';
import { BatchLookupCompactRequest, BatchLookupRequest } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { encodeBatchLookupRequest } from './request-encoder.js';

describe('encodeBatchLookupRequest', () => {
  it('writes the bytes the generated codec writes (ASCII, non-ASCII, empty and long strings)', () => {
    const ip = fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 300, unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(ip, { maxLength: 50 }), (ips) => {
        const bytes = encodeBatchLookupRequest({ ips });
        expect(bytes.equals(Buffer.from(BatchLookupRequest.encode({ ips }).finish()))).toBe(true);
        expect(BatchLookupCompactRequest.decode(bytes).ips).toEqual(ips);
      }),
      { numRuns: 300 },
    );
  });
});
