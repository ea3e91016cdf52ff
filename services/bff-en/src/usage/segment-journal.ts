import { close, closeSync, mkdirSync, open, openSync, readSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from 'pino';
import { AckCheckpoint } from './ack-checkpoint.js';

/**
 * An append-only journal of opaque payloads in numbered segment files
 * (`usage-000000000001.journal`, ...). Each payload is one frame:
 *
 *   u32 LE payload length | u32 LE CRC-32 of the payload | payload
 *
 * written with one synchronous write(2), which several frames may share. When the
 * append returns, its frames are in the kernel's page cache, which a killed process (SIGKILL, OOM
 * kill, crash) cannot take back; only a machine crash or power cut before the kernel writes it out
 * could, and guarding against that would need an fsync per request, which this journal
 * deliberately does not do.
 *
 * A segment is deleted only once it is sealed (a newer one takes the appends) and every event
 * in it was acknowledged. Opening the next segment and deleting finished ones run in libuv's
 * threadpool, off the event loop that answers requests: on this machine's ext4 an open took
 * 0.4–3.6 ms and an unlink of an 8 MiB segment 3–12 ms, each a stall of every request behind it
 * (services/bff-en/PERFORMANCE.md, session 31). Until the next segment is open, appends go on into the
 * full one, so a segment ends a few frames past `segmentBytes`; `acked.checkpoint` (AckCheckpoint) remembers how far acknowledgements
 * reached. Segments found at open belong to an earlier run: their events after the checkpoint
 * are read back and sent first; a torn last frame (a process killed inside write(2)) ends its segment: that
 * append never returned, so its request was never answered.
 */
export interface Segment {
  readonly seq: number;
  readonly path: string;
  /** Bytes written (ours) or found (an earlier run's). */
  bytes: number;
  /** Events appended; for an earlier run's segment, events read so far. */
  events: number;
  /** False for an earlier run's segment until it has been read to its end. */
  counted: boolean;
  sealed: boolean;
  acked: number;
}

export interface JournalCursor {
  segment: Segment;
  offset: number;
}

export interface ReadResult {
  /** `end`: the offset right after the event's frame, what a checkpoint records once it is acknowledged. */
  payloads: Array<{ payload: Uint8Array; segment: Segment; end: number }>;
  /** Where the next read starts; undefined once the reader caught up with the appends. */
  cursor: JournalCursor | undefined;
}

export const FRAME_HEADER_BYTES = 8;
/** A frame longer than this is corruption, not a usage event (those are a few hundred bytes). */
const MAX_PAYLOAD_BYTES = 1 << 20;
const READ_CHUNK_BYTES = 256 * 1024;
const NAME = /^usage-(\d{12})\.journal$/;

/** Fills in the header of the frame at `start` whose payload was written from `start + FRAME_HEADER_BYTES` to `end`. */
export function sealFrame(buffer: Buffer, start: number, end: number): void {
  const payload = start + FRAME_HEADER_BYTES;
  buffer.writeUInt32LE(end - payload, start);
  buffer.writeUInt32LE(crc32(buffer.subarray(payload, end)), start + 4);
}

function segmentName(seq: number): string {
  return `usage-${String(seq).padStart(12, '0')}.journal`;
}

export class SegmentJournal {
  /** Oldest first; the last one takes the appends. */
  readonly segments: Segment[] = [];
  private fd: number;
  private closed = false;
  private writeFailed = false;
  /** The next segment's number. */
  private nextSeq: number;
  /** The next segment while fs.open() makes it; `abandoned` when it is not wanted by the time it opens. */
  private opening: { seq: number; abandoned: boolean } | undefined;
  /** Opens, closes and deletions running in the threadpool; drained() waits for them. */
  private readonly background = new Set<Promise<void>>();
  private readonly checkpoint: AckCheckpoint;
  /** Where an earlier run's unacknowledged events begin; undefined when it left none. */
  readonly replayFrom: JournalCursor | undefined;

  private constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
    private readonly logger: Logger,
  ) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir).sort()) {
      const match = NAME.exec(name);
      if (!match) continue;
      const path = join(dir, name);
      this.segments.push({
        seq: Number(match[1]),
        path,
        bytes: statSync(path).size,
        events: 0,
        counted: false,
        sealed: true,
        acked: 0,
      });
    }
    this.checkpoint = AckCheckpoint.at(dir);
    const acked = this.checkpoint.read();
    while (acked !== undefined && this.segments.length > 0 && (this.segments[0] as Segment).seq < acked.seq) {
      // Acknowledged to its end; the earlier run died before deleting it.
      unlinkSync((this.segments.shift() as Segment).path);
    }
    const first = this.segments[0];
    if (first !== undefined) {
      this.replayFrom = { segment: first, offset: first.seq === acked?.seq ? Math.min(acked.offset, first.bytes) : 0 };
    }
    this.nextSeq = (this.segments.at(-1)?.seq ?? 0) + 1;
    const seq = this.nextSeq++;
    const path = join(dir, segmentName(seq));
    this.fd = openSync(path, 'wx');
    this.segments.push({ seq, path, bytes: 0, events: 0, counted: true, sealed: false, acked: 0 });
  }

  /** Opens the journal in `dir` (created if missing); the caller holds the directory's lock. */
  static open(dir: string, options: { segmentBytes: number }, logger: Logger): SegmentJournal {
    return new SegmentJournal(dir, options.segmentBytes, logger);
  }

  get active(): Segment {
    return this.segments.at(-1) as Segment;
  }

  get bytes(): number {
    let total = 0;
    for (const segment of this.segments) total += segment.bytes;
    return total;
  }

  /**
   * Appends `count` frames, bytes [0, end) of `frames`, each sealed (sealFrame), with a single
   * synchronous write. Returns the segment that holds them; they end at its `bytes`.
   */
  append(frames: Buffer, end: number, count: number): Segment {
    if (this.closed) throw new Error('usage journal is closed');
    // A failed write may have left part of a frame at the end of the file, where O_APPEND would
    // put the next one: later frames go to a new segment, and this one ends in a torn frame.
    if (this.writeFailed) this.rotate();
    try {
      let written = 0;
      // A regular file takes the whole buffer in one write; the loop only guards a short write.
      while (written < end) written += writeSync(this.fd, frames, written, end - written);
    } catch (error) {
      this.writeFailed = true;
      throw error;
    }
    const segment = this.active;
    segment.bytes += end;
    segment.events += count;
    if (segment.bytes >= this.segmentBytes) this.rotateSoon();
    return segment;
  }

  /** Reads up to `max` payloads from `cursor` on, moving to newer segments as each one ends. */
  read(cursor: JournalCursor, max: number): ReadResult {
    const payloads: ReadResult['payloads'] = [];
    let { segment, offset } = cursor;
    while (payloads.length < max) {
      if (offset >= segment.bytes) {
        if (!segment.sealed) return { payloads, cursor: undefined }; // caught up with the appends
        segment.counted = true;
        const next = this.segments[this.segments.indexOf(segment) + 1];
        if (!next) return { payloads, cursor: undefined };
        segment = next;
        offset = 0;
        continue;
      }
      offset = this.readFrames(segment, offset, max - payloads.length, payloads);
    }
    return { payloads, cursor: { segment, offset } };
  }

  /** Counts `events` acknowledged in `segment` and deletes the oldest segments that are done. */
  acknowledge(segment: Segment, events: number): void {
    segment.acked += events;
    this.deleteDoneSegments();
  }

  private deleteDoneSegments(): void {
    while (this.segments.length > 1) {
      const oldest = this.segments[0] as Segment;
      if (!oldest.sealed || !oldest.counted || oldest.acked < oldest.events) break;
      this.segments.shift();
      this.inBackground(
        unlink(oldest.path).catch((error: unknown) => {
          // Harmless: the checkpoint is past it, so the next start deletes it (constructor).
          this.logger.warn({ err: error, segment: oldest.path }, 'acknowledged usage journal segment not deleted');
        }),
      );
    }
  }

  /** Records that every event up to `end` in `segment` (and before it) was acknowledged. */
  checkpointAt(segment: Segment, end: number): void {
    if (!this.closed) this.checkpoint.write({ seq: segment.seq, offset: end });
  }

  /**
   * Closes the active segment; deletes every segment when all their events were acknowledged.
   * Deletions and opens still running finish on their own: await drained() for them.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opening !== undefined) this.opening.abandoned = true;
    closeSync(this.fd);
    const done = this.segments.every((segment) => segment.counted && segment.acked >= segment.events);
    this.checkpoint.close(done);
    if (!done) return;
    for (const segment of this.segments) unlinkSync(segment.path);
    this.segments.length = 0;
  }

  /** Resolves once every open, close and deletion started so far has finished. */
  async drained(): Promise<void> {
    while (this.background.size > 0) await Promise.all(this.background);
  }

  /** The active segment is full: the next one is opened in the threadpool and takes the appends once open. */
  private rotateSoon(): void {
    if (this.opening !== undefined || this.closed) return;
    const opening = { seq: this.nextSeq++, abandoned: false };
    this.opening = opening;
    const path = join(this.dir, segmentName(opening.seq));
    this.inBackground(
      new Promise<void>((resolve) =>
        open(path, 'wx', (error, fd) => {
          if (this.opening === opening) this.opening = undefined;
          if (error) {
            this.logger.warn(
              { err: error, segment: path },
              'next usage journal segment could not be opened; trying once more in line',
            );
            if (!this.closed && !opening.abandoned) this.rotateOrStay();
          } else if (opening.abandoned) {
            // Closed, or a failed write rotated in line meanwhile: the new file is empty and unused.
            close(fd, () => void unlink(path).then(resolve, resolve));
            return;
          } else {
            this.moveAppendsTo(opening.seq, path, fd);
          }
          resolve();
        }),
      ),
    );
  }

  /** Opens the next segment in line (after a failed write, whose torn frame must end its segment). */
  private rotate(): void {
    if (this.opening !== undefined) this.opening.abandoned = true;
    this.opening = undefined;
    const seq = this.nextSeq++;
    const path = join(this.dir, segmentName(seq));
    this.moveAppendsTo(seq, path, openSync(path, 'wx'));
  }

  private rotateOrStay(): void {
    try {
      this.rotate();
    } catch (error) {
      // The next full append tries again; appends go on into the full segment meanwhile.
      this.logger.error({ err: error, dir: this.dir }, 'usage journal cannot open a new segment');
    }
  }

  private moveAppendsTo(seq: number, path: string, fd: number): void {
    const full = this.active;
    const previous = this.fd;
    this.segments.push({ seq, path, bytes: 0, events: 0, counted: true, sealed: false, acked: 0 });
    this.fd = fd;
    full.sealed = true;
    this.writeFailed = false;
    this.inBackground(new Promise<void>((resolve) => close(previous, () => resolve())));
    // Its last events may have been acknowledged while the next segment was opening: then no later
    // acknowledgement would come for it.
    this.deleteDoneSegments();
  }

  private inBackground(work: Promise<void>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** Reads whole frames of one segment from `offset`; returns the offset after the last one. */
  private readFrames(segment: Segment, offset: number, max: number, out: ReadResult['payloads']): number {
    const fd = openSync(segment.path, 'r');
    try {
      let chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, segment.bytes - offset));
      let length = readSync(fd, chunk, 0, chunk.length, offset);
      let at = 0;
      let read = 0;
      while (read < max) {
        if (offset >= segment.bytes) break;
        if (segment.bytes - offset < FRAME_HEADER_BYTES) return this.corrupt(segment, offset, 'torn frame header');
        if (length - at < FRAME_HEADER_BYTES) break; // the next read starts at this frame
        const size = chunk.readUInt32LE(at);
        const end = at + FRAME_HEADER_BYTES + size;
        if (size === 0 || size > MAX_PAYLOAD_BYTES || offset + end - at > segment.bytes) {
          return this.corrupt(segment, offset, size === 0 || size > MAX_PAYLOAD_BYTES ? 'bad frame length' : 'torn frame');
        }
        if (end > length) {
          if (at > 0) break; // the next read starts at this frame
          chunk = Buffer.allocUnsafe(FRAME_HEADER_BYTES + size); // a frame larger than one chunk
          length = readSync(fd, chunk, 0, chunk.length, offset);
          continue;
        }
        const payload = chunk.subarray(at + FRAME_HEADER_BYTES, end);
        if (crc32(payload) !== chunk.readUInt32LE(at + 4)) return this.corrupt(segment, offset, 'checksum mismatch');
        if (!segment.counted) segment.events++;
        read++;
        offset += end - at;
        out.push({ payload, segment, end: offset });
        at = end;
      }
      return offset;
    } finally {
      closeSync(fd);
    }
  }

  /** An earlier run's segment ends in a frame that cannot be read: its events end there. */
  private corrupt(segment: Segment, offset: number, reason: string): number {
    if (!segment.sealed) throw new Error(`usage journal ${segment.path}: ${reason} at ${offset} in the active segment`);
    this.logger.warn(
      { segment: segment.path, offset, droppedBytes: segment.bytes - offset, reason },
      'usage journal segment ends in an unreadable frame (a write cut short by a crash); the events before it are kept',
    );
    return segment.bytes;
  }
}
