import { writeIpv4Ascii } from '@ipdata/common/ip';
import type { SlicingBuffer } from './wire-types.js';

/** Longest payload append() copies byte by byte (parts are 20-100 bytes; a round figure, not tuned). */
const SHORT_COPY = 128;

/** Appends protobuf wire data to a growing Buffer. */
export class Sink {
  buffer: Buffer;
  position = 0;
  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }
  ensure(extra: number): void {
    if (this.position + extra <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.position + extra));
    this.buffer.copy(next, 0, 0, this.position);
    this.buffer = next;
  }
  varint(value: number): void {
    this.ensure(10);
    while (value >= 0x80) {
      this.buffer[this.position++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buffer[this.position++] = value;
  }
  /**
   * A string field. Addresses and most queries are ASCII: written byte by byte in place, which
   * skips Buffer.byteLength and Buffer#write's argument handling (measured ~15% of a batch);
   * other text goes through the UTF-8 encoder.
   */
  string(fieldTag: number, text: string): void {
    this.varint(fieldTag);
    const length = text.length;
    if (length < 128) {
      this.ensure(length + 1);
      const buffer = this.buffer;
      const start = this.position + 1;
      let i = 0;
      for (; i < length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 128) break;
        buffer[start + i] = c;
      }
      if (i === length) {
        buffer[this.position] = length;
        this.position = start + length;
        return;
      }
    }
    const bytes = Buffer.byteLength(text);
    this.varint(bytes);
    this.ensure(bytes);
    this.position += this.buffer.write(text, this.position, bytes, 'utf8');
  }
  /**
   * Starts a length-delimited field whose payload is written next, in place: returns where the
   * length goes, for closeLength. Saves building the payload elsewhere and copying it.
   */
  openLength(fieldTag: number): number {
    this.varint(fieldTag);
    this.ensure(1);
    return this.position++;
  }
  /** Ends a field opened at `at`. One length byte was reserved: a payload of 128 bytes or more moves right. */
  closeLength(at: number): void {
    let length = this.position - at - 1;
    if (length < 128) {
      this.buffer[at] = length;
      return;
    }
    let extra = 0;
    for (let rest = length >>> 7; rest >= 0x80; rest >>>= 7) extra++;
    extra++;
    this.ensure(extra);
    this.buffer.copyWithin(at + 1 + extra, at + 1, this.position);
    this.position += extra;
    while (length >= 0x80) {
      this.buffer[at++] = (length & 0x7f) | 0x80;
      length >>>= 7;
    }
    this.buffer[at] = length;
  }
  /** An IPv4 address (optionally "/len") as a string field, written as ASCII without a JS string. */
  ipv4(fieldTag: number, value: number, prefixLength = -1): void {
    const at = this.openLength(fieldTag);
    this.ipv4Text(value, prefixLength);
    this.closeLength(at);
  }
  /** An IPv4 address (optionally "/len") as bare ASCII text, at most 18 bytes. */
  ipv4Text(value: number, prefixLength = -1): void {
    this.ensure(18);
    this.position = writeIpv4Ascii(this.buffer, this.position, value, prefixLength);
  }
  /** Bytes start..end of what was written, as a string (Latin-1: for ASCII text such as ipv4Text's). */
  latin1(start: number, end: number): string {
    return (this.buffer as SlicingBuffer).latin1Slice(start, end);
  }
  /** A bytes (or embedded message) field holding payload[start..end). */
  raw(fieldTag: number, payload: Uint8Array, start = 0, end = payload.length): void {
    this.varint(fieldTag);
    this.varint(end - start);
    this.append(payload, start, end);
  }
  /** payload[start..end) as it is (already encoded fields), without tag or length. */
  append(payload: Uint8Array, start = 0, end = payload.length): void {
    const length = end - start;
    this.ensure(length);
    const buffer = this.buffer;
    const at = this.position;
    // Most payloads here are parts of 20-100 bytes: a loop spares TypedArray#set's per-call cost.
    if (length <= SHORT_COPY) for (let i = 0; i < length; i++) buffer[at + i] = payload[start + i] as number;
    else buffer.set(payload.subarray(start, end), at);
    this.position = at + length;
  }
  /** A bytes field holding `count` 32-bit words big-endian (an address: 1 word IPv4, 4 words IPv6). */
  words(fieldTag: number, words: ArrayLike<number>, offset: number, count: number): void {
    this.varint(fieldTag);
    this.ensure(1 + count * 4);
    const buffer = this.buffer;
    let at = this.position;
    buffer[at++] = count * 4;
    for (let w = 0; w < count; w++) {
      const word = words[offset + w] as number;
      buffer[at] = word >>> 24;
      buffer[at + 1] = word >>> 16;
      buffer[at + 2] = word >>> 8;
      buffer[at + 3] = word;
      at += 4;
    }
    this.position = at;
  }
  take(): Buffer {
    return this.buffer.subarray(0, this.position);
  }
}
