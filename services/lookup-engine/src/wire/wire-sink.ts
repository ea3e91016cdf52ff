import { charCodeAt } from '../ip/parse-ip.js';
import type { SlicingBuffer } from './wire-types.js';

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
        const c = charCodeAt.call(text, i);
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
  /** An IPv4 address (optionally "/len") as a string field, written as ASCII without a JS string. */
  ipv4(fieldTag: number, value: number, prefixLength = -1): void {
    this.varint(fieldTag);
    const lengthAt = this.position++;
    this.ipv4Text(value, prefixLength);
    this.buffer[lengthAt] = this.position - lengthAt - 1;
  }
  /** An IPv4 address (optionally "/len") as bare ASCII text, at most 18 bytes. */
  ipv4Text(value: number, prefixLength = -1): void {
    this.ensure(18);
    const buffer = this.buffer;
    let at = this.position;
    for (let shift = 24; shift >= 0; shift -= 8) {
      at = writeDecimal(buffer, at, (value >>> shift) & 255);
      if (shift > 0) buffer[at++] = 46;
    }
    if (prefixLength >= 0) {
      buffer[at++] = 47;
      at = writeDecimal(buffer, at, prefixLength);
    }
    this.position = at;
  }
  /** Bytes start..end of what was written, as a string (Latin-1: for ASCII text such as ipv4Text's). */
  latin1(start: number, end: number): string {
    return (this.buffer as SlicingBuffer).latin1Slice(start, end);
  }
  raw(fieldTag: number, payload: Uint8Array): void {
    this.varint(fieldTag);
    this.varint(payload.length);
    this.ensure(payload.length);
    this.buffer.set(payload, this.position);
    this.position += payload.length;
  }
  /** A bytes field holding `count` 32-bit words big-endian (an address: 1 word IPv4, 4 words IPv6). */
  words(fieldTag: number, words: ArrayLike<number>, offset: number, count: number): void {
    this.varint(fieldTag);
    this.ensure(1 + count * 4);
    this.buffer[this.position++] = count * 4;
    for (let w = 0; w < count; w++) {
      this.buffer.writeUInt32BE(words[offset + w] as number, this.position);
      this.position += 4;
    }
  }
  take(): Buffer {
    return this.buffer.subarray(0, this.position);
  }
}

function writeDecimal(buffer: Buffer, at: number, value: number): number {
  if (value >= 100) buffer[at++] = 48 + Math.floor(value / 100);
  if (value >= 10) buffer[at++] = 48 + (Math.floor(value / 10) % 10);
  buffer[at++] = 48 + (value % 10);
  return at;
}
