import { cloudEventHeaders } from '@ipdata/common/worker';
import type { Segment } from './segment-journal.js';
import type { UsageKafkaRecord } from './usage.ports.js';

/**
 * A batch of encoded UsageEvents waiting for Kafka, held as bytes: each event is one frame
 * (u32 LE length, the event's protobuf bytes) in one growing buffer, plus how many of them each
 * journal segment holds. Per event nothing is allocated that lives on: events wait up to the
 * ledger's linger (200 ms), long enough that an object per event would be promoted and
 * collected by the old generation's GC (measured: the public API's largest accounting cost).
 * The buffer comes from a FramesBufferPool and goes back to it once the batch is acknowledged.
 */
export class UsageEventFrames {
  private buf: Buffer;
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

  constructor(private readonly pool: FramesBufferPool = new FramesBufferPool(0)) {
    this.buf = pool.take();
  }

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

  /** The frames, back to back (a view: valid until the next append or release). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }

  /** Gives the buffer back to the pool for a later batch: the frames are gone after this. */
  release(): void {
    this.pool.give(this.buf);
    this.buf = EMPTY;
    this.used = 0;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Buffers for UsageEventFrames, reused from one batch to the next. A batch lives ~0.5 s under
 * load, so its buffer (~1 MiB once grown, as an ArrayBuffer outside V8's heap) was promoted and
 * freed only by a mark-compact; 2 MB a batch of them made V8 start mark-compacts of the main
 * thread for external memory (session 38: 5–6 against 2–3 with the accounting off, in the
 * same 80 s of load). Keeps at most `keep` free buffers; more are left to the GC.
 */
export class FramesBufferPool {
  private readonly free: Buffer[] = [];

  constructor(private readonly keep = 4) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(64 * 1024);
  }

  give(buffer: Buffer): void {
    if (buffer.length > 0 && this.free.length < this.keep) this.free.push(buffer);
  }
}

/** Each frame's payload, in order; throws on frames that run past the end (not a batch of ours). */
export function framePayloads(frames: Uint8Array): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  const view = new DataView(frames.buffer, frames.byteOffset, frames.byteLength);
  const count = frameCount(frames);
  for (let i = 0, at = 0; i < count; i++) {
    const length = view.getUint32(at, true);
    payloads.push(frames.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return payloads;
}

/** How many frames `frames` holds; throws RangeError when one runs past the end (not a batch of ours). */
export function frameCount(frames: Uint8Array): number {
  const view = new DataView(frames.buffer, frames.byteOffset, frames.byteLength);
  let count = 0;
  for (let at = 0; at < frames.length; count++) {
    if (at + 4 > frames.length) throw new RangeError(`usage event frames: torn length at ${at}`);
    const length = view.getUint32(at, true);
    if (at + 4 + length > frames.length) throw new RangeError(`usage event frames: frame at ${at} runs past the end`);
    at += 4 + length;
  }
  return count;
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
  const fields = usageEventFields(payload, 0, payload.length, newUsageEventFields());
  const text = (start: number, end: number) => decoder.decode(payload.subarray(start, end));
  return {
    id: text(fields.idStart, fields.idEnd),
    source: text(fields.sourceStart, fields.sourceEnd),
    timeMs: fields.timeMs,
    key: text(fields.keyStart, fields.keyEnd),
  };
}

/** Where readUsageEventFacts' fields sit in a buffer holding the event (start..end of each text). */
export interface UsageEventFields {
  idStart: number;
  idEnd: number;
  sourceStart: number;
  sourceEnd: number;
  timeMs: number;
  keyStart: number;
  keyEnd: number;
}

export const newUsageEventFields = (): UsageEventFields => ({
  idStart: 0,
  idEnd: 0,
  sourceStart: 0,
  sourceEnd: 0,
  timeMs: 0,
  keyStart: 0,
  keyEnd: 0,
});

/**
 * Finds the fields of the UsageEvent in bytes `start`..`end` of `bytes` and puts where they are
 * in `fields` (reused by the caller: nothing is allocated per event but the reader).
 */
export function usageEventFields(bytes: Uint8Array, start: number, end: number, fields: UsageEventFields): UsageEventFields {
  fields.idStart = 0;
  fields.idEnd = 0;
  fields.sourceStart = 0;
  fields.sourceEnd = 0;
  fields.timeMs = 0;
  let apiKeyStart = 0;
  let apiKeyEnd = 0;
  let accountStart = 0;
  let accountEnd = 0;
  let visitorStart = 0;
  let visitorEnd = 0;
  const reader = new FieldReader(bytes, start, end);
  while (reader.more()) {
    const tag = reader.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 1 && wire === WIRE_LEN) {
      const afterMeta = reader.enter();
      while (reader.more()) {
        const inner = reader.varint();
        if (inner === tagOf(1, WIRE_LEN)) {
          fields.idStart = reader.skipText();
          fields.idEnd = reader.at;
        } else if (inner === tagOf(2, WIRE_LEN)) {
          fields.sourceStart = reader.skipText();
          fields.sourceEnd = reader.at;
        } else if (inner === tagOf(3, WIRE_LEN)) {
          const afterTime = reader.enter();
          let seconds = 0;
          let nanos = 0;
          while (reader.more()) {
            const part = reader.varint();
            if (part === tagOf(1, WIRE_VARINT)) seconds = reader.varint();
            else if (part === tagOf(2, WIRE_VARINT)) nanos = reader.varint();
            else reader.skip(part & 7);
          }
          reader.leave(afterTime);
          fields.timeMs = seconds * 1000 + Math.floor(nanos / 1_000_000);
        } else reader.skip(inner & 7);
      }
      reader.leave(afterMeta);
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
  if (apiKeyEnd > apiKeyStart) {
    fields.keyStart = apiKeyStart;
    fields.keyEnd = apiKeyEnd;
  } else if (visitorEnd > visitorStart) {
    fields.keyStart = visitorStart;
    fields.keyEnd = visitorEnd;
  } else {
    fields.keyStart = accountStart;
    fields.keyEnd = accountEnd;
  }
  return fields;
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;
const tagOf = (field: number, wire: number) => field * 8 + wire;

/** Reads protobuf fields of bytes `at`..`end`; throws on anything malformed. */
class FieldReader {
  constructor(
    private readonly bytes: Uint8Array,
    /** Where the next field starts. */
    public at: number,
    /** Where the message being read ends (a nested one's while inside it). */
    private end: number,
  ) {}

  more(): boolean {
    return this.at < this.end;
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

  /** Reads into the nested message that starts here; answers what leave() needs to come back out. */
  enter(): number {
    const length = this.varint();
    const start = this.take(length);
    const outerEnd = this.end;
    this.at = start;
    this.end = start + length;
    return outerEnd;
  }

  leave(outerEnd: number): void {
    this.end = outerEnd;
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
