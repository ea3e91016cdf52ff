/**
 * BatchLookupCompact against BatchLookup on the real dataset (`make dataset`): the client's
 * decoding of the compact answer equals the generated codec's decoding of the plain one, for
 * 20,000 random IPv4 and 5,000 IPv6 addresses (range starts and random ones in 2000::/3).
 */
import { BatchLookupResponse } from '@ipdata/proto/lookup/v1/lookup';
import { formatIpv4, formatIpv6 } from '@ipdata/common/ip';
import { seededRandom } from '@ipdata/common/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeBatchLookupCompactResponse } from '../src/client/compact-batch-decoder.js';
import type { LoadedDataset } from '../src/dataset/loaded-dataset.js';
import { loadBuiltDataset } from './fixtures/real-dataset.js';
import { AnswerEncoder } from '../src/lookup/answer-encoder.js';
import { CompactBatchEncoder } from '../src/lookup/compact-batch-encoder.js';

describe('BatchLookupCompact on the full dataset', () => {
  let dataset: LoadedDataset;

  beforeAll(async () => {
    dataset = await loadBuiltDataset();
  }, 60_000);

  it('decodes to the same answers as BatchLookup', () => {
    const plain = new AnswerEncoder(dataset);
    const compact = new CompactBatchEncoder(dataset);
    const next = seededRandom(4242);
    const word = () => Math.floor(next() * 2 ** 32);
    const batches: string[][] = [];
    for (let b = 0; b < 20; b++) batches.push(Array.from({ length: 1000 }, () => formatIpv4(word())));
    const v6Ranges = dataset.summary.ipv6Ranges;
    for (let b = 0; b < 5; b++) {
      batches.push(
        Array.from({ length: 1000 }, (_, i) =>
          i % 2 === 0
            ? formatIpv6(dataset.view.ipv6Starts, Math.floor(next() * v6Ranges) * 4)
            : formatIpv6([(word() & 0x1fffffff) | 0x20000000, word(), word(), word()]),
        ),
      );
    }
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    let bytesCompact = 0;
    let bytesPlain = 0;
    for (const queries of batches) {
      const plainBytes = plain.encodeBatch(queries, now);
      const compactBytes = compact.encode(queries, now);
      bytesPlain += plainBytes.length;
      bytesCompact += compactBytes.length;
      expect(decodeBatchLookupCompactResponse(compactBytes)).toEqual(BatchLookupResponse.decode(plainBytes));
    }
    process.stdout.write(`compact batch bytes: ${bytesCompact} vs plain ${bytesPlain}\n`);
    expect(bytesCompact).toBeLessThan(bytesPlain / 2);
  }, 120_000);
});
