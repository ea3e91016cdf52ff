import { cloudEventHeaders } from '@ipdata/common';
import type { Segment } from './segment-journal.js';
import type { UsageKafkaRecord } from './usage.ports.js';

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
  const facts = { id: '', source: '', timeMs: 0, key: '' };
  let apiKeyId = '';
  let accountId = '';
  let visitorId = '';
  const reader = new FieldReader(payload, 0, payload.length);
  while (reader.more()) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === WIRE_LEN) {
      const meta = reader.nested();
      while (meta.more()) {
        const inner = meta.tag();
        if (inner.field === 1 && inner.wire === WIRE_LEN) facts.id = meta.text();
        else if (inner.field === 2 && inner.wire === WIRE_LEN) facts.source = meta.text();
        else if (inner.field === 3 && inner.wire === WIRE_LEN) {
          const time = meta.nested();
          let seconds = 0;
          let nanos = 0;
          while (time.more()) {
            const part = time.tag();
            if (part.field === 1 && part.wire === WIRE_VARINT) seconds = time.varint();
            else if (part.field === 2 && part.wire === WIRE_VARINT) nanos = time.varint();
            else time.skip(part.wire);
          }
          facts.timeMs = seconds * 1000 + Math.floor(nanos / 1_000_000);
        } else meta.skip(inner.wire);
      }
    } else if (field === 3 && wire === WIRE_LEN) apiKeyId = reader.text();
    else if (field === 4 && wire === WIRE_LEN) accountId = reader.text();
    else if (field === 5 && wire === WIRE_LEN) visitorId = reader.text();
    else reader.skip(wire);
  }
  facts.key = apiKeyId || visitorId || accountId;
  return facts;
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Reads protobuf fields of bytes `at`..`end`; throws on anything malformed. */
class FieldReader {
  constructor(
    private readonly bytes: Uint8Array,
    private at: number,
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

  text(): string {
    const length = this.varint();
    const start = this.take(length);
    return decoder.decode(this.bytes.subarray(start, start + length));
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
