import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Murmur2Partitioner } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import type { Segment } from './segment-journal.js';
import { UsageEventFrames, usageKafkaRecords } from './usage-event-frames.js';
import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import { usageRecordBatches } from './usage-record-batches.js';
import type { UsageRecord } from './usage-record.js';
import { sampleUsageRecord } from './usage-record.sample.js';
import type { UsageKafkaRecord } from './usage.ports.js';

const require = createRequire(import.meta.url);
// kafkajs' own record and record batch encoders and its batch decoder: the references.
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (record: object) => unknown;
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
  RecordBatch: (batch: object) => Promise<{ buffer: Buffer }>;
};
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => unknown;
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (decoder: unknown) => Promise<{
  firstTimestamp: string;
  maxTimestamp: string;
  producerId: string;
  records: Array<{ key: Buffer; value: Buffer; headers: Record<string, Buffer>; timestamp: string; offset: string }>;
}>;
const kafkajsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (bytes: Buffer) => number;

const EVENT_TYPE = 'ipdata.events.v1.UsageEvent';
const segment: Segment = { seq: 1, path: 'usage-1.journal', bytes: 0, events: 0, counted: true, sealed: false, acked: 0 };

function framesOf(records: UsageRecord[]): Uint8Array {
  const frames = new UsageEventFrames();
  for (const record of records) {
    const buffer = Buffer.alloc(maxEncodedBytes(record, 'bff-en'));
    const end = encodeUsageRecord(record, 'bff-en', buffer, 0);
    frames.append(buffer, 0, end, segment, end);
  }
  return frames.bytes();
}

/** What kafkajs itself writes for these records as one partition's batch (the Java producer's unset producer fields). */
async function kafkajsBatch(records: UsageKafkaRecord[]): Promise<Buffer> {
  const timestamps = records.map((record) => Number(record.timestamp));
  const first = Math.min(...timestamps);
  const batch = await RecordBatch({
    records: records.map((record, i) => Record({ ...record, offsetDelta: i, timestampDelta: Number(record.timestamp) - first })),
    firstTimestamp: first,
    maxTimestamp: Math.max(...timestamps),
    lastOffsetDelta: records.length - 1,
    partitionLeaderEpoch: -1,
    producerEpoch: -1,
    firstSequence: -1,
  });
  return batch.buffer;
}

/** Which partition kafkajs would send each record to, with the producer's partitioner. */
function kafkajsPartitions(records: UsageKafkaRecord[], partitionCount: number): Map<number, UsageKafkaRecord[]> {
  const partitioner = Murmur2Partitioner();
  const partitionMetadata = Array.from({ length: partitionCount }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  const grouped = new Map<number, UsageKafkaRecord[]>();
  for (const record of records) {
    const partition = partitioner({ topic: 't', partitionMetadata, message: { key: record.key, value: record.value } });
    grouped.set(partition, [...(grouped.get(partition) ?? []), record]);
  }
  return grouped;
}

const BASE_MS = Date.parse('2026-11-30T05:00:00.000Z');
/** Events as the ledger sends them: a few keys of each kind, times a little out of order, ids of any length. */
const usageRecords = fc.array(
  fc.record({
    id: fc.string({ minLength: 1, maxLength: 150, unit: 'grapheme' }),
    key: fc.constantFrom(
      { apiKeyId: 'key-1' },
      { apiKeyId: 'key-2' },
      { apiKeyId: 'ключ-3' },
      { apiKeyId: '', visitorId: 'visitor-9', accountId: '' },
      { apiKeyId: '', visitorId: '', accountId: 'acc-7' },
    ),
    offsetMs: fc.integer({ min: -3_000, max: 200_000 }),
  }),
  { minLength: 1, maxLength: 60 },
);

describe('usageRecordBatches', () => {
  it('writes each partition’s events byte for byte as kafkajs writes usageKafkaRecords’ records there', async () => {
    await fc.assert(
      fc.asyncProperty(usageRecords, fc.integer({ min: 1, max: 16 }), async (events, partitionCount) => {
        const frames = framesOf(
          events.map(({ id, key, offsetMs }) => sampleUsageRecord(id, { ...key, time: new Date(BASE_MS + offsetMs) })),
        );
        const expected = kafkajsPartitions(usageKafkaRecords(frames, EVENT_TYPE), partitionCount);
        const batches = usageRecordBatches(frames, EVENT_TYPE, partitionCount);
        expect(batches.map((batch) => batch.partition)).toEqual([...expected.keys()].sort((a, b) => a - b));
        for (const batch of batches) {
          const records = expected.get(batch.partition) ?? [];
          expect(batch.records).toBe(records.length);
          expect(batch.recordBatch).toEqual(await kafkajsBatch(records));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives batches that kafkajs reads back as every event with its key, headers and timestamp, and a CRC-32C that holds', async () => {
    const frames = framesOf([
      sampleUsageRecord('req-a', { time: new Date('2026-11-30T05:00:01.007Z') }),
      sampleUsageRecord('req-b', { time: new Date('2026-11-30T05:00:00.999Z') }),
      // toISOString() is not 24 characters past the year 9999.
      sampleUsageRecord('req-c', { time: new Date(Date.UTC(10_000, 0, 1)) }),
      sampleUsageRecord(`req-${'long-'.repeat(40)}`, { time: new Date('1970-01-01T00:00:00.001Z') }),
    ]);
    const records = usageKafkaRecords(frames, EVENT_TYPE);
    const [batch, ...more] = usageRecordBatches(frames, EVENT_TYPE, 1);
    expect(more).toEqual([]);
    const bytes = batch!.recordBatch;
    expect(bytes.readUInt32BE(17)).toBe(kafkajsCrc32c(bytes.subarray(21)));
    const decoded = await decodeRecordBatch(new Decoder(bytes));
    expect(decoded.producerId).toBe('-1');
    const times = records.map((record) => Number(record.timestamp));
    expect(decoded.firstTimestamp).toBe(String(Math.min(...times)));
    expect(decoded.maxTimestamp).toBe(String(Math.max(...times)));
    expect(
      decoded.records.map((record) => ({
        key: record.key.toString(),
        value: record.value,
        headers: Object.fromEntries(Object.entries(record.headers).map(([name, value]) => [name, value.toString()])),
        timestamp: record.timestamp,
        offset: record.offset,
      })),
    ).toEqual(records.map((record, i) => ({ ...record, offset: String(i) })));
  });

  it('refuses frames that are not whole usage events, and a partition count below one', () => {
    const frames = framesOf([sampleUsageRecord('req-a')]);
    expect(() => usageRecordBatches(frames.subarray(0, frames.length - 1), EVENT_TYPE, 3)).toThrow(RangeError);
    // A whole frame whose event ends inside its first field.
    const cut = Buffer.from(frames.subarray(0, 4 + 6));
    cut.writeUInt32LE(6, 0);
    expect(() => usageRecordBatches(cut, EVENT_TYPE, 3)).toThrow(RangeError);
    expect(() => usageRecordBatches(frames, EVENT_TYPE, 0)).toThrow(RangeError);
  });
});
