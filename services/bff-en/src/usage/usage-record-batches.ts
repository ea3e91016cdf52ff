import { cloudEventHeaders, crc32c, keyPartition, murmur2 } from '@ipdata/common/worker';
import { frameCount, newUsageEventFields, usageEventFields } from './usage-event-frames.js';

/**
 * One partition's share of a send: a whole Kafka record batch (RecordBatch v2: magic 2,
 * uncompressed, not idempotent), which the patched kafkajs sends as that partition's records as
 * it is (patches/kafkajs+2.2.4.patch, `recordBatches`).
 */
export interface PartitionRecordBatch {
  partition: number;
  recordBatch: Buffer;
  records: number;
}

/** RecordBatch v2's fixed part, baseOffset to the record count (Kafka's DefaultRecordBatch). */
const BATCH_HEADER_BYTES = 61;
/** The batch's CRC-32C covers its bytes from the attributes on. */
const CRC_AT = 17;
const ATTRIBUTES_AT = 21;

/** What the passes keep per event, in one Int32Array: STRIDE slots an event. */
const PARTITION = 0;
const OFFSET_DELTA = 1;
const VALUE_START = 2;
const VALUE_END = 3;
const ID_START = 4;
const ID_END = 5;
const SOURCE_START = 6;
const SOURCE_END = 7;
const KEY_START = 8;
const KEY_END = 9;
const BODY_BYTES = 10;
const STRIDE = 11;

/**
 * The usage ledger's batch (`frames`: each encoded UsageEvent as u32 LE length and bytes,
 * UsageEventFrames) as one record batch per partition, written in one buffer: each event keyed
 * and partitioned as Murmur2Partitioner would (usageEventKey: the API key id, else the visitor
 * id, else the account id), with its CloudEvents binary-mode headers (cloudEventHeaders') and
 * its time as the record's timestamp; events keep their order within a partition. The same
 * records kafkajs writes for usageKafkaRecords' objects, without an object per event: those
 * lived through the broker's round trip, and the ledger worker's garbage collection and CPU were
 * the accounting's largest share of bff-en's work besides its answers (PERFORMANCE.md).
 * Throws RangeError on frames that are not whole UsageEvents.
 */
export function usageRecordBatches(frames: Uint8Array, eventType: string, partitionCount: number): PartitionRecordBatch[] {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) throw new RangeError(`partition count ${partitionCount}`);
  const template = headerTemplate(eventType);
  const events = frameCount(frames);
  const slots = new Int32Array(events * STRIDE);
  const times = new Float64Array(events);
  const records = new Int32Array(partitionCount);
  const firstTime = new Float64Array(partitionCount).fill(Number.POSITIVE_INFINITY);
  const maxTime = new Float64Array(partitionCount).fill(Number.NEGATIVE_INFINITY);
  const fields = newUsageEventFields();
  const view = new DataView(frames.buffer, frames.byteOffset, frames.byteLength);
  for (let i = 0, at = 0; i < events; i++) {
    const start = at + 4;
    const end = start + view.getUint32(at, true);
    at = end;
    usageEventFields(frames, start, end, fields);
    const partition = keyPartition(murmur2(frames, fields.keyStart, fields.keyEnd), partitionCount);
    const s = i * STRIDE;
    slots[s + PARTITION] = partition;
    slots[s + OFFSET_DELTA] = records[partition] as number;
    records[partition] = (records[partition] as number) + 1;
    slots[s + VALUE_START] = start;
    slots[s + VALUE_END] = end;
    slots[s + ID_START] = fields.idStart;
    slots[s + ID_END] = fields.idEnd;
    slots[s + SOURCE_START] = fields.sourceStart;
    slots[s + SOURCE_END] = fields.sourceEnd;
    slots[s + KEY_START] = fields.keyStart;
    slots[s + KEY_END] = fields.keyEnd;
    times[i] = fields.timeMs;
    // The batch's first timestamp is its least, so every record's delta is ≥ 0 (as kafkajs does).
    if (fields.timeMs < (firstTime[partition] as number)) firstTime[partition] = fields.timeMs;
    if (fields.timeMs > (maxTime[partition] as number)) maxTime[partition] = fields.timeMs;
  }

  // Sizes first, so each record's length goes in front of it and each batch gets its exact room.
  const batchBytes = new Float64Array(partitionCount);
  for (let i = 0; i < events; i++) {
    const s = i * STRIDE;
    const partition = slots[s + PARTITION] as number;
    const body =
      1 +
      zigzagBytes((times[i] as number) - (firstTime[partition] as number)) +
      zigzagBytes(slots[s + OFFSET_DELTA] as number) +
      bytesField((slots[s + KEY_END] as number) - (slots[s + KEY_START] as number)) +
      bytesField((slots[s + VALUE_END] as number) - (slots[s + VALUE_START] as number)) +
      template.constantBytes +
      bytesField((slots[s + ID_END] as number) - (slots[s + ID_START] as number)) * template.idSlots +
      bytesField((slots[s + SOURCE_END] as number) - (slots[s + SOURCE_START] as number)) * template.sourceSlots +
      isoTimeBytes(times[i] as number) * template.timeSlots;
    slots[s + BODY_BYTES] = body;
    batchBytes[partition] = (batchBytes[partition] as number) + zigzagBytes(body) + body;
  }
  const batchStart = new Float64Array(partitionCount);
  const cursor = new Float64Array(partitionCount);
  let total = 0;
  for (let partition = 0; partition < partitionCount; partition++) {
    if (records[partition] === 0) continue;
    batchStart[partition] = total;
    cursor[partition] = total + BATCH_HEADER_BYTES;
    total += BATCH_HEADER_BYTES + (batchBytes[partition] as number);
  }

  const out = Buffer.allocUnsafe(total);
  const isoTime = new IsoTimeWriter();
  for (let i = 0; i < events; i++) {
    const s = i * STRIDE;
    const partition = slots[s + PARTITION] as number;
    const start = cursor[partition] as number;
    const body = slots[s + BODY_BYTES] as number;
    let at = writeZigzag(out, start, body);
    out[at++] = 0; // attributes: none
    at = writeZigzag(out, at, (times[i] as number) - (firstTime[partition] as number));
    at = writeZigzag(out, at, slots[s + OFFSET_DELTA] as number);
    at = writeBytes(out, at, frames, slots[s + KEY_START] as number, slots[s + KEY_END] as number);
    at = writeBytes(out, at, frames, slots[s + VALUE_START] as number, slots[s + VALUE_END] as number);
    at = copyInto(out, at, template.runs[0] as Buffer, 0);
    for (let h = 0; h < template.slots.length; h++) {
      const slot = template.slots[h];
      if (slot === 'id') at = writeBytes(out, at, frames, slots[s + ID_START] as number, slots[s + ID_END] as number);
      else if (slot === 'source')
        at = writeBytes(out, at, frames, slots[s + SOURCE_START] as number, slots[s + SOURCE_END] as number);
      else at = isoTime.write(out, at, times[i] as number);
      at = copyInto(out, at, template.runs[h + 1] as Buffer, 0);
    }
    // A sizing slip would shift every later record of the batch: fail the send, not the broker's check.
    if (at !== start + zigzagBytes(body) + body) throw new Error(`usage record batch: record ${i} is not the size it was given`);
    cursor[partition] = at;
  }

  const batches: PartitionRecordBatch[] = [];
  for (let partition = 0; partition < partitionCount; partition++) {
    const count = records[partition] as number;
    if (count === 0) continue;
    const start = batchStart[partition] as number;
    const end = cursor[partition] as number;
    writeBatchHeader(out, start, end, count, firstTime[partition] as number, maxTime[partition] as number);
    batches.push({ partition, recordBatch: out.subarray(start, end), records: count });
  }
  return batches;
}

/** Writes RecordBatch v2's fixed part in front of its records, `start`..`end`, and its checksum. */
function writeBatchHeader(out: Buffer, start: number, end: number, records: number, firstTime: number, maxTime: number): void {
  out.writeBigInt64BE(0n, start); // base offset: the broker assigns offsets
  out.writeInt32BE(end - start - 12, start + 8); // the batch's length after this field
  out.writeInt32BE(-1, start + 12); // partition leader epoch: none (the Java producer's)
  out[start + 16] = 2; // magic
  out.writeInt16BE(0, start + ATTRIBUTES_AT); // no compression, create time, not transactional
  out.writeInt32BE(records - 1, start + 23); // last offset delta
  out.writeBigInt64BE(BigInt(firstTime), start + 27);
  out.writeBigInt64BE(BigInt(maxTime), start + 35);
  out.writeBigInt64BE(-1n, start + 43); // producer id: not idempotent (UsageKafkaSink)
  out.writeInt16BE(-1, start + 51); // producer epoch
  out.writeInt32BE(-1, start + 53); // base sequence
  out.writeInt32BE(records, start + 57);
  out.writeUInt32BE(crc32c(out, start + ATTRIBUTES_AT, end), start + CRC_AT);
}

/** The key's and value's lengths and a spare (the header template counts its own): varints of at most 5 bytes. */
const MAX_VARINTS_PER_RECORD = 3;
/** Each record's length, attributes, timestamp and offset deltas. */
const RECORD_FRAMING_BYTES = 16;

/**
 * A usage event of n bytes takes at most 2n + this many bytes as a Kafka record: its value, its
 * key, id and source (parts of the value), the headers' constant bytes and the record's framing.
 */
export function recordOverheadBytes(eventType: string): number {
  return headerTemplate(eventType).fixedBytes + MAX_VARINTS_PER_RECORD * 5 + RECORD_FRAMING_BYTES;
}

type HeaderSlot = 'id' | 'source' | 'time';

/**
 * A record's headers as constant bytes around the per-event values: `runs[0]`, then each slot's
 * value followed by `runs[i + 1]` (lengths included).
 */
interface HeaderTemplate {
  runs: Buffer[];
  slots: HeaderSlot[];
  /** The bytes of `runs`, all written for every record. */
  constantBytes: number;
  /** How often each per-event value appears (once each in cloudEventHeaders). */
  idSlots: number;
  sourceSlots: number;
  timeSlots: number;
  /** The most bytes the headers take beside the event's id and source (which the value bounds). */
  fixedBytes: number;
}

const templates = new Map<string, HeaderTemplate>();

/**
 * cloudEventHeaders' names, order and constant values as bytes, with slots for the per-event
 * ones: made from cloudEventHeaders itself, so the records carry exactly its headers.
 */
function headerTemplate(eventType: string): HeaderTemplate {
  let template = templates.get(eventType);
  if (template !== undefined) return template;
  const placeholders: Record<HeaderSlot, string> = { id: '\u0000id', source: '\u0000source', time: '\u0000time' };
  // eslint-disable-next-line ipdata/no-spread-then-members -- once per event type
  const headers = Object.entries(cloudEventHeaders({ ...placeholders, type: eventType }));
  const slots: HeaderSlot[] = [];
  const runs: Buffer[] = [];
  let run: Buffer[] = [];
  const count = Buffer.allocUnsafe(5);
  run.push(count.subarray(0, writeZigzag(count, 0, headers.length)));
  for (const [name, value] of headers) {
    run.push(lengthPrefixed(Buffer.from(name)));
    const slot = (Object.keys(placeholders) as HeaderSlot[]).find((key) => placeholders[key] === value);
    if (slot === undefined) {
      run.push(lengthPrefixed(Buffer.from(value)));
      continue;
    }
    slots.push(slot);
    runs.push(Buffer.concat(run));
    run = [];
  }
  runs.push(Buffer.concat(run));
  const constantBytes = runs.reduce((sum, bytes) => sum + bytes.length, 0);
  const times = (slot: HeaderSlot) => slots.filter((each) => each === slot).length;
  // A time takes 24 bytes and its length one; 32 leaves room.
  const fixedBytes = constantBytes + 32 * slots.length;
  template = {
    runs,
    slots,
    constantBytes,
    idSlots: times('id'),
    sourceSlots: times('source'),
    timeSlots: times('time'),
    fixedBytes,
  };
  templates.set(eventType, template);
  return template;
}

/** toISOString() is 24 characters for the years 0 to 9999. */
const ISO_24_FIRST_MS = Date.parse('0000-01-01T00:00:00.000Z');
const ISO_24_LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** The bytes IsoTimeWriter writes for a time: its length and its text. */
function isoTimeBytes(ms: number): number {
  if (ms >= ISO_24_FIRST_MS && ms <= ISO_24_LAST_MS) return 25;
  return bytesField(new Date(ms).toISOString().length);
}

/**
 * Writes a time as toISOString() would (24 characters, length first), formatting only the
 * milliseconds per event: a batch's events fall in a few seconds, and toISOString() costs ~1.3 µs.
 */
class IsoTimeWriter {
  private second = Number.NaN;
  /** `YYYY-MM-DDTHH:MM:SS.` of `second`, length first. */
  private prefix: Buffer = Buffer.alloc(0);

  write(out: Buffer, at: number, ms: number): number {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      const text = new Date(ms).toISOString();
      if (text.length !== 24) return writeBytes(out, at, Buffer.from(text, 'latin1'), 0, text.length);
      this.second = second;
      this.prefix = lengthPrefixed(Buffer.from(text.slice(0, 20), 'latin1'));
      this.prefix[0] = 48; // the length is the whole text's, 24 (zigzag 48), not the prefix's
    }
    at = copyInto(out, at, this.prefix, 0);
    const millis = ms - second * 1000;
    out[at++] = 48 + Math.floor(millis / 100);
    out[at++] = 48 + (Math.floor(millis / 10) % 10);
    out[at++] = 48 + (millis % 10);
    out[at++] = 90; // Z
    return at;
  }
}

/** Copies all of `from` to `at` (short runs byte by byte: TypedArray#set costs ~100 ns a call). */
function copyInto(out: Buffer, at: number, from: Uint8Array, start: number, end = from.length): number {
  const length = end - start;
  if (length > 48) out.set(from.subarray(start, end), at);
  else for (let i = 0; i < length; i++) out[at + i] = from[start + i] as number;
  return at + length;
}

function lengthPrefixed(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + bytes.length);
  const at = writeZigzag(out, 0, bytes.length);
  out.set(bytes, at);
  return out.subarray(0, at + bytes.length);
}

/** A number n ≥ 0 as Kafka's records write lengths and deltas: a zigzag varint (2n), up to 2^52. */
function writeZigzag(out: Buffer, at: number, n: number): number {
  let value = n * 2;
  while (value >= 128) {
    out[at++] = (value & 127) | 128;
    value = Math.floor(value / 128);
  }
  out[at++] = value;
  return at;
}

/** How many bytes writeZigzag takes for n. */
function zigzagBytes(n: number): number {
  let value = n * 2;
  let bytes = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    bytes++;
  }
  return bytes;
}

/** A length-prefixed run of `length` bytes. */
const bytesField = (length: number): number => zigzagBytes(length) + length;

function writeBytes(out: Buffer, at: number, from: Uint8Array, start: number, end: number): number {
  return copyInto(out, writeZigzag(out, at, end - start), from, start, end);
}
