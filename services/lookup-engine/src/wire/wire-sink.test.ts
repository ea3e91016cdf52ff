import { describe, expect, it } from 'vitest';
import { WireCursor } from './wire-cursor.js';
import { Sink } from './wire-sink.js';
import { LEN, tag } from './wire-types.js';

const FIELD = tag(5, LEN);

/** Reads one length-delimited field back: its tag and payload. */
function readField(bytes: Uint8Array): { fieldTag: number; payload: number[] } {
  const cursor = new WireCursor();
  cursor.reset(bytes);
  const fieldTag = cursor.varint();
  const end = cursor.limit();
  const payload = [...bytes.subarray(cursor.pos, end)];
  expect(end).toBe(bytes.length);
  return { fieldTag, payload };
}

describe('Sink', () => {
  it('writes a field in place and closes it with its length, moving long payloads behind a longer varint', () => {
    for (const length of [0, 1, 127, 128, 129, 300, 16_383, 16_384, 70_000]) {
      const sink = new Sink(16);
      const at = sink.openLength(FIELD);
      const payload = Array.from({ length }, (_, i) => (i * 31 + length) & 255);
      sink.ensure(length);
      sink.buffer.set(payload, sink.position);
      sink.position += length;
      sink.closeLength(at);
      const read = readField(sink.take());
      expect(read.fieldTag, `length ${length}`).toBe(FIELD);
      expect(read.payload).toEqual(payload);
    }
  });

  it('copies short and long slices of a payload (the loop and the native copy)', () => {
    const source = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 255);
    for (const [start, end] of [
      [0, 0],
      [3, 40],
      [10, 138],
      [10, 139],
      [0, 1000],
    ] as const) {
      const sink = new Sink(4);
      sink.raw(FIELD, source, start, end);
      expect(readField(sink.take()).payload).toEqual([...source.subarray(start, end)]);
    }
  });

  it('writes 32-bit words big-endian', () => {
    const sink = new Sink(4);
    sink.words(FIELD, Uint32Array.of(0, 0x01020304, 0xfffefdfc), 1, 2);
    expect(readField(sink.take()).payload).toEqual([1, 2, 3, 4, 0xff, 0xfe, 0xfd, 0xfc]);
  });
});
