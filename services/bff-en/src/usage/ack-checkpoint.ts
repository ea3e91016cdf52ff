import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

export interface AckPosition {
  /** Segment number. */
  seq: number;
  /** Byte offset in that segment: every event before it was acknowledged by Kafka. */
  offset: number;
}

const FILE = 'acked.checkpoint';
const BYTES = 20; // f64 seq, f64 offset, u32 CRC-32 of the 16 bytes before it

/**
 * How far Kafka acknowledged the journal, so a restart re-sends only what may not have arrived
 * (without it, a whole active segment, up to segmentBytes, would be re-sent after every crash).
 * One fixed-size record rewritten in place after each acknowledged batch, without fsync: like
 * the journal, it has to survive the process, not the machine. It only ever trails the truth (it
 * is written after the acknowledgement), so a lost or unreadable checkpoint means re-sending more,
 * never losing anything.
 */
export class AckCheckpoint {
  private readonly buffer = Buffer.alloc(BYTES);
  private fd: number | undefined;

  private constructor(private readonly path: string) {}

  static at(dir: string): AckCheckpoint {
    return new AckCheckpoint(join(dir, FILE));
  }

  /** The position an earlier run reached; undefined when there is none or it does not check out. */
  read(): AckPosition | undefined {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return undefined;
    }
    try {
      const data = Buffer.alloc(BYTES);
      if (readSync(fd, data, 0, BYTES, 0) !== BYTES) return undefined;
      if (crc32(data.subarray(0, 16)) !== data.readUInt32LE(16)) return undefined;
      const position = { seq: data.readDoubleLE(0), offset: data.readDoubleLE(8) };
      return Number.isSafeInteger(position.seq) && Number.isSafeInteger(position.offset) ? position : undefined;
    } finally {
      closeSync(fd);
    }
  }

  write(position: AckPosition): void {
    this.fd ??= openSync(this.path, 'w');
    this.buffer.writeDoubleLE(position.seq, 0);
    this.buffer.writeDoubleLE(position.offset, 8);
    this.buffer.writeUInt32LE(crc32(this.buffer.subarray(0, 16)), 16);
    writeSync(this.fd, this.buffer, 0, BYTES, 0);
  }

  close(remove: boolean): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (!remove) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Never written in this run and none left by an earlier one.
    }
  }
}
