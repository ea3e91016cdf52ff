import { cloudEventHeaders } from '@ipdata/common/worker';
import type { Segment } from './segment-journal.js';
import type { UsageKafkaMessage, UsageKafkaRecord } from './usage.ports.js';

/**
 * A batch of encoded UsageEvents waiting for Kafka, held as bytes: each event is one frame
 * (u32 LE length, the event's protobuf bytes) in one growing buffer, plus how many of them each
 * journal segment holds. Per event nothing is allocated that lives on: events wait up to the
 * ledger's linger (200 ms), long enough that an object per event would be promoted and
 * collected by the old generation's GC (measured: the public API's largest accounting cost).
 */
export class UsageEventFrames {
  private buf = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  events = 0;
  /** The most bytes these events take as Kafka records (recordOverheadBytes): UsageLedger bounds a send by it. */
  recordBytes = 0;
  /** performance.now() when the first event came in: a batch filling up is sent once its linger is over. */
  readonly openedAt = performance.now();
  /** Consecutive events per segment, oldest first: what an acknowledgement counts off. */
  readonly runs: Array<{ segment: Segment; events: number }> = [];
  /** Where the last event ends in its segment: the checkpoint once the batch is acknowledged. */
  last: { segment: Segment; end: number } | undefined;

  /** Copies one event (bytes `from`..`to` of `source`) in, with the journal place it came from. */
  append(source: Uint8Array, from: number, to: number, segment: Segment, end: number): void {
    const length = to - from;
    if (this.used + 4 + length > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.used + 4 + length));
      this.buf.copy(bigger, 0, 0, this.used);
      this.buf = bigger;
    }
    this.buf.writeUInt32LE(length, this.used);
    this.buf.set(source.subarray(from, to), this.used + 4);
    this.used += 4 + length;
    this.events++;
    const run = this.runs.at(-1);
    if (run?.segment === segment) run.events++;
    else this.runs.push({ segment, events: 1 });
    this.last = { segment, end };
  }

  /** The frames, back to back (a view: valid until the next append). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }
}

/** Each frame's payload, in order; throws on frames that run past the end (not a batch of ours). */
export function framePayloads(frames: Uint8Array): Uint8Array[] {
  const view = new DataView(frames.buffer, frames.byteOffset, frames.byteLength);
  const payloads: Uint8Array[] = [];
  for (let at = 0; at < frames.length;) {
    if (at + 4 > frames.length) throw new RangeError(`usage event frames: torn length at ${at}`);
    const length = view.getUint32(at, true);
    if (at + 4 + length > frames.length) throw new RangeError(`usage event frames: frame at ${at} runs past the end`);
    payloads.push(frames.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return payloads;
}

/** A batch as Kafka records: key, CloudEvents headers and timestamp read from each event's own bytes. */
export function usageKafkaRecords(frames: Uint8Array, eventType: string): UsageKafkaRecord[] {
  return framePayloads(frames).map((payload) => {
    const facts = readUsageEventFacts(payload);
    return {
      key: facts.key,
      value: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
      headers: cloudEventHeaders({
        id: facts.id,
        type: eventType,
        source: facts.source,
        time: new Date(facts.timeMs).toISOString(),
      }),
      timestamp: String(facts.timeMs),
    };
  });
}

/**
 * A batch as kafkajs messages whose records are already written from the key on
 * (`recordTail`, patches/kafkajs+2.2.4.patch): the same bytes kafkajs writes for
 * usageKafkaRecords' records, made here in one pass over the events with their id, source and
 * key copied straight from the event's bytes. kafkajs' own record encoding cost ~18 µs per event
 * (an encoder per record and per header), most of the ledger worker's CPU
 * (scripts/bench/usage-kafka-records.bench.ts).
 */
export function usageKafkaMessages(frames: Uint8Array, eventType: string): UsageKafkaMessage[] {
  const payloads = framePayloads(frames);
  const headers = headerTemplate(eventType);
  const isoTime = new IsoTimeWriter();
  let room = 0;
  for (const payload of payloads) room += 2 * payload.length + headers.fixedBytes + MAX_VARINTS_PER_RECORD * 5;
  const out = Buffer.allocUnsafeSlow(room);
  const messages: UsageKafkaMessage[] = [];
  let at = 0;
  for (const payload of payloads) {
    const fields = usageEventFields(payload);
    const start = at;
    at = writeBytes(out, at, payload, fields.keyStart, fields.keyEnd);
    at = writeBytes(out, at, payload, 0, payload.length);
    // The header count and the constant bytes between the per-event values, in runs.
    at = copyInto(out, at, headers.runs[0] as Buffer, 0);
    for (let i = 0; i < headers.slots.length; i++) {
      const slot = headers.slots[i];
      if (slot === 'id') at = writeBytes(out, at, payload, fields.idStart, fields.idEnd);
      else if (slot === 'source') at = writeBytes(out, at, payload, fields.sourceStart, fields.sourceEnd);
      else at = isoTime.write(out, at, fields.timeMs);
      at = copyInto(out, at, headers.runs[i + 1] as Buffer, 0);
    }
    messages.push({
      key: Buffer.from(payload.buffer, payload.byteOffset + fields.keyStart, fields.keyEnd - fields.keyStart),
      value: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
      timestamp: String(fields.timeMs),
      recordTail: out.subarray(start, at),
    });
  }
  return messages;
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

/** The key's and value's lengths and a spare (the header template counts its own): varints of at most 5 bytes. */
const MAX_VARINTS_PER_RECORD = 3;
/** What kafkajs writes around each record's tail: its length, attributes, timestamp and offset deltas. */
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
  /** The most bytes the headers take beside the event's id and source (which the value bounds). */
  fixedBytes: number;
}

const templates = new Map<string, HeaderTemplate>();

/**
 * cloudEventHeaders' names, order and constant values as bytes, with slots for the per-event
 * ones: made from cloudEventHeaders itself, so both ways of sending write the same headers.
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
  run.push(count.subarray(0, writeLength(count, 0, headers.length)));
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
  // A time takes 24 bytes and its length one; 32 leaves room.
  const fixedBytes = runs.reduce((sum, bytes) => sum + bytes.length, 0) + 32 * slots.length;
  template = { runs, slots, fixedBytes };
  templates.set(eventType, template);
  return template;
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
  const at = writeLength(out, 0, bytes.length);
  out.set(bytes, at);
  return out.subarray(0, at + bytes.length);
}

/** A length as Kafka's records write it: a zigzag varint (n ≥ 0 becomes 2n). */
function writeLength(out: Buffer, at: number, length: number): number {
  let value = length * 2;
  while (value >= 128) {
    out[at++] = (value & 127) | 128;
    value = Math.floor(value / 128);
  }
  out[at++] = value;
  return at;
}

function writeBytes(out: Buffer, at: number, from: Uint8Array, start: number, end: number): number {
  return copyInto(out, writeLength(out, at, end - start), from, start, end);
}

export interface UsageEventFacts {
  id: string;
  source: string;
  timeMs: number;
  /** The record key: the API key id, else the visitor id, else the account id (usageEventKey). */
  key: string;
}

const decoder = new TextDecoder();

/**
 * The fields a record's key and headers need, read straight from a UsageEvent's protobuf bytes
 * (field numbers: proto/ipdata/events/v1/usage.proto, envelope.proto; usage-event.codec.ts writes
 * them), skipping the rest. A property test holds it to the generated decoder.
 */
export function readUsageEventFacts(payload: Uint8Array): UsageEventFacts {
  const fields = usageEventFields(payload);
  const text = (start: number, end: number) => decoder.decode(payload.subarray(start, end));
  return {
    id: text(fields.idStart, fields.idEnd),
    source: text(fields.sourceStart, fields.sourceEnd),
    timeMs: fields.timeMs,
    key: text(fields.keyStart, fields.keyEnd),
  };
}

/** Where readUsageEventFacts' fields sit in the event's bytes (start..end of each text). */
interface UsageEventFields {
  idStart: number;
  idEnd: number;
  sourceStart: number;
  sourceEnd: number;
  timeMs: number;
  keyStart: number;
  keyEnd: number;
}

function usageEventFields(payload: Uint8Array): UsageEventFields {
  const fields = { idStart: 0, idEnd: 0, sourceStart: 0, sourceEnd: 0, timeMs: 0, keyStart: 0, keyEnd: 0 };
  let apiKeyStart = 0;
  let apiKeyEnd = 0;
  let accountStart = 0;
  let accountEnd = 0;
  let visitorStart = 0;
  let visitorEnd = 0;
  const reader = new FieldReader(payload, 0, payload.length);
  while (reader.more()) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === WIRE_LEN) {
      const meta = reader.nested();
      while (meta.more()) {
        const inner = meta.tag();
        if (inner.field === 1 && inner.wire === WIRE_LEN) {
          fields.idStart = meta.skipText();
          fields.idEnd = meta.at;
        } else if (inner.field === 2 && inner.wire === WIRE_LEN) {
          fields.sourceStart = meta.skipText();
          fields.sourceEnd = meta.at;
        } else if (inner.field === 3 && inner.wire === WIRE_LEN) {
          const time = meta.nested();
          let seconds = 0;
          let nanos = 0;
          while (time.more()) {
            const part = time.tag();
            if (part.field === 1 && part.wire === WIRE_VARINT) seconds = time.varint();
            else if (part.field === 2 && part.wire === WIRE_VARINT) nanos = time.varint();
            else time.skip(part.wire);
          }
          fields.timeMs = seconds * 1000 + Math.floor(nanos / 1_000_000);
        } else meta.skip(inner.wire);
      }
    } else if (field === 3 && wire === WIRE_LEN) {
      apiKeyStart = reader.skipText();
      apiKeyEnd = reader.at;
    } else if (field === 4 && wire === WIRE_LEN) {
      accountStart = reader.skipText();
      accountEnd = reader.at;
    } else if (field === 5 && wire === WIRE_LEN) {
      visitorStart = reader.skipText();
      visitorEnd = reader.at;
    } else reader.skip(wire);
  }
  // usageEventKey: the API key id, else the visitor id, else the account id.
  if (apiKeyEnd > apiKeyStart) [fields.keyStart, fields.keyEnd] = [apiKeyStart, apiKeyEnd];
  else if (visitorEnd > visitorStart) [fields.keyStart, fields.keyEnd] = [visitorStart, visitorEnd];
  else [fields.keyStart, fields.keyEnd] = [accountStart, accountEnd];
  return fields;
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Reads protobuf fields of bytes `at`..`end`; throws on anything malformed. */
class FieldReader {
  constructor(
    private readonly bytes: Uint8Array,
    /** Where the next field starts. */
    public at: number,
    private readonly end: number,
  ) {}

  more(): boolean {
    return this.at < this.end;
  }

  tag(): { field: number; wire: number } {
    const tag = this.varint();
    return { field: Math.floor(tag / 8), wire: tag & 7 };
  }

  /** Up to 2^53: timestamps' seconds fit. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.end) throw new RangeError('usage event: varint runs past the end');
      const byte = this.bytes[this.at++] as number;
      value += (byte & 127) * scale;
      if (byte < 128) return value;
      scale *= 128;
      if (scale > 2 ** 56) throw new RangeError('usage event: varint too long');
    }
  }

  /** Steps over a length-delimited field; answers where its bytes start (they end at `at`). */
  skipText(): number {
    return this.take(this.varint());
  }

  nested(): FieldReader {
    const length = this.varint();
    const start = this.take(length);
    return new FieldReader(this.bytes, start, start + length);
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_LEN) this.take(this.varint());
    else if (wire === WIRE_I64) this.take(8);
    else if (wire === WIRE_I32) this.take(4);
    else throw new RangeError(`usage event: wire type ${wire} not expected`);
  }

  private take(length: number): number {
    const start = this.at;
    if (start + length > this.end) throw new RangeError('usage event: field runs past the end');
    this.at = start + length;
    return start;
  }
}
