import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FRAME_HEADER_BYTES, SegmentJournal, sealFrame } from './segment-journal.js';

const logger = pino({ level: 'silent' });
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openJournal(segmentBytes: number): { dir: string; journal: SegmentJournal } {
  const dir = mkdtempSync(join(tmpdir(), 'segment-journal-'));
  dirs.push(dir);
  return { dir, journal: SegmentJournal.open(dir, { segmentBytes }, logger) };
}

/** Appends `text` as one frame. */
function append(journal: SegmentJournal, text: string) {
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + Buffer.byteLength(text));
  frame.write(text, FRAME_HEADER_BYTES);
  sealFrame(frame, 0, frame.length);
  return journal.append(frame, frame.length, 1);
}

function readAll(journal: SegmentJournal): string[] {
  const first = journal.segments[0];
  if (first === undefined) return [];
  const { payloads } = journal.read({ segment: first, offset: 0 }, 1_000);
  return payloads.map(({ payload }) => Buffer.from(payload).toString());
}

const frames = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `event-${from + i}`);

describe('SegmentJournal', () => {
  it('keeps appending to a full segment until the next one is open (off the event loop), then moves on; nothing lost or reordered', async () => {
    const { journal } = openJournal(100);
    // ~15-byte frames: the segment is full after 7, but all 20 of this turn go into it.
    const first = frames(0, 20).map((text) => append(journal, text));
    expect(new Set(first).size).toBe(1);
    expect(journal.segments).toHaveLength(1);
    await journal.drained();
    expect(journal.segments).toHaveLength(2);
    expect(journal.segments[0]?.sealed).toBe(true);
    const second = append(journal, 'event-20');
    expect(second).toBe(journal.active);
    expect(second).not.toBe(first[0]);
    expect(readAll(journal)).toEqual(frames(0, 21));
    journal.close();
    await journal.drained();
  });

  it('deletes a sealed segment once all of it is acknowledged, and never the one taking appends', async () => {
    const { dir, journal } = openJournal(100);
    const segment = frames(0, 10).map((text) => append(journal, text))[0];
    await journal.drained();
    if (segment === undefined) throw new Error('no segment');
    readAll(journal); // counts the sealed segment's events, as the ledger's reader does
    journal.acknowledge(segment, 9);
    await journal.drained();
    expect(existsSync(segment.path)).toBe(true);
    journal.acknowledge(segment, 1);
    await journal.drained();
    expect(existsSync(segment.path)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.journal'))).toHaveLength(1);
    journal.close();
    await journal.drained();
  });

  it('a segment acknowledged in full while the next one was opening is deleted once that one takes the appends', async () => {
    const { dir, journal } = openJournal(100);
    const segment = frames(0, 10).map((text) => append(journal, text))[0];
    if (segment === undefined) throw new Error('no segment');
    // The ledger's live path: sent and acknowledged straight from memory before the open completes.
    journal.acknowledge(segment, 10);
    expect(existsSync(segment.path)).toBe(true); // still the one taking appends
    await journal.drained(); // the next one opens; no later acknowledgement comes for the full one
    expect(existsSync(segment.path)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.journal'))).toHaveLength(1);
    journal.close();
    await journal.drained();
  });

  it('closed while the next segment is being opened: that empty segment does not stay behind', async () => {
    const { dir, journal } = openJournal(10);
    append(journal, 'event-0'); // full: the next segment is being opened
    journal.close();
    await journal.drained();
    expect(readdirSync(dir).filter((name) => name.endsWith('.journal'))).toEqual(['usage-000000000001.journal']);
    const reopened = SegmentJournal.open(dir, { segmentBytes: 10 }, logger);
    expect(readAll(reopened)).toEqual(['event-0']);
    reopened.close();
    await reopened.drained();
  });
});
