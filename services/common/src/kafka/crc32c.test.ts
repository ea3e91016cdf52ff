import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c.js';

// kafkajs' own CRC-32C (a table lookup per byte): the reference.
const kafkajsCrc32c = createRequire(import.meta.url)('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (
  bytes: Buffer,
) => number;

describe('crc32c', () => {
  it('gives the check value of CRC-32C for "123456789"', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('equals kafkajs’ CRC-32C on any bytes, and on any range of them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        expect(crc32c(bytes)).toBe(kafkajsCrc32c(Buffer.from(bytes)));
        const start = bytes.length === 0 ? 0 : a % bytes.length;
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        expect(crc32c(bytes, start, end)).toBe(kafkajsCrc32c(Buffer.from(bytes.subarray(start, end))));
      }),
      { numRuns: 2_000 },
    );
  });
});
