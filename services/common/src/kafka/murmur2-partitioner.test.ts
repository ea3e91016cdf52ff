import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Partitioners, type PartitionerArgs, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { Murmur2Partitioner, murmur2 } from './murmur2-partitioner.js';

// kafkajs' own Java-compatible murmur2 (64-bit Long arithmetic): the reference this one must equal.
const kafkajsMurmur2 = createRequire(import.meta.url)('kafkajs/src/producer/partitioners/default/murmur2.js') as (
  key: Buffer,
) => number;

const partitions = (count: number, leaderless: number[] = []): PartitionMetadata[] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionId,
    leader: leaderless.includes(partitionId) ? -1 : 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));

describe('murmur2 partitioner', () => {
  it('hashes every byte string as kafkajs’ (and the Java client’s) murmur2 does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(murmur2(bytes)).toBe(kafkajsMurmur2(Buffer.from(bytes)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('hashes a range of a buffer as the same bytes on their own', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 80 }),
        fc.uint8Array({ maxLength: 40 }),
        (before, key, after) => {
          const buffer = Buffer.concat([before, key, after]);
          expect(murmur2(buffer, before.length, before.length + key.length)).toBe(murmur2(key));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('puts every keyed message on the partition kafkajs’ DefaultPartitioner picks', () => {
    const ours = Murmur2Partitioner();
    const theirs = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'grapheme' }), fc.integer({ min: 1, max: 64 }), (key, count) => {
        const args: PartitionerArgs = { topic: 't', partitionMetadata: partitions(count), message: { key, value: null } };
        expect(ours(args)).toBe(theirs(args));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps an explicit partition and spreads keyless messages over partitions that have a leader', () => {
    const partitioner = Murmur2Partitioner();
    const metadata = partitions(4, [1]);
    expect(partitioner({ topic: 't', partitionMetadata: metadata, message: { key: 'k', value: null, partition: 3 } })).toBe(3);
    const chosen = new Set(
      Array.from({ length: 30 }, () => partitioner({ topic: 't', partitionMetadata: metadata, message: { value: null } })),
    );
    expect([...chosen].sort()).toEqual([0, 2, 3]);
  });
});
