import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import type { UsageRecord } from './usage-record.js';

/**
 * A group of encoded UsageEvents as the ledger stores it and the relay reads it: each event as
 * (u32 LE length, protobuf bytes), back to back. One group is one stream entry (one turn's
 * records) and one Kafka send's worth of values, so an event is encoded once on the request path
 * and never again.
 */
const HEADER_BYTES = 4;

/** The frames of `records`, in order, in a buffer of their own. */
export function encodeFrames(records: readonly UsageRecord[], source: string): Buffer {
  let room = 0;
  for (const record of records) room += HEADER_BYTES + maxEncodedBytes(record, source);
  const buf = Buffer.allocUnsafe(room);
  let end = 0;
  for (const record of records) {
    const start = end + HEADER_BYTES;
    end = encodeUsageRecord(record, source, buf, start);
    buf.writeUInt32LE(end - start, start - HEADER_BYTES);
  }
  return buf.subarray(0, end);
}

/** Each event's bytes, views of `frames`; throws on a truncated group (never written by encodeFrames). */
export function splitFrames(frames: Uint8Array): Uint8Array[] {
  const view = Buffer.from(frames.buffer, frames.byteOffset, frames.byteLength);
  const events: Uint8Array[] = [];
  let at = 0;
  while (at < view.length) {
    if (at + HEADER_BYTES > view.length) throw new RangeError(`usage frames truncated at byte ${at}`);
    const length = view.readUInt32LE(at);
    const start = at + HEADER_BYTES;
    if (start + length > view.length) throw new RangeError(`usage frame at byte ${at} runs past the group`);
    events.push(view.subarray(start, start + length));
    at = start + length;
  }
  return events;
}
