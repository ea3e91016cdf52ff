import { cloudEventHeaders } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import type { Segment } from './segment-journal.js';
import { FramesBufferPool, UsageEventFrames, framePayloads, usageKafkaRecords } from './usage-event-frames.js';
import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import type { UsageRecord } from './usage-record.js';
import { sampleUsageRecord } from './usage-record.sample.js';

const segment = (seq: number): Segment => ({
  seq,
  path: `usage-${seq}.journal`,
  bytes: 0,
  events: 0,
  counted: true,
  sealed: false,
  acked: 0,
});

function encoded(requestId: string, overrides: Partial<UsageRecord> = {}): Buffer {
  const record = sampleUsageRecord(requestId, overrides);
  const buf = Buffer.alloc(maxEncodedBytes(record, 'bff-en'));
  return buf.subarray(0, encodeUsageRecord(record, 'bff-en', buf, 0));
}

describe('UsageEventFrames', () => {
  it('holds events as frames in order, growing as needed, and counts them per journal segment', () => {
    const frames = new UsageEventFrames();
    const [first, second] = [segment(1), segment(2)];
    const payloads = Array.from({ length: 600 }, (_, i) => encoded(`req-${i}-${'x'.repeat(i % 97)}`));
    payloads.forEach((payload, i) => frames.append(payload, 0, payload.length, i < 400 ? first : second, (i + 1) * 10));
    expect(frames.events).toBe(600);
    expect(frames.runs).toEqual([
      { segment: first, events: 400 },
      { segment: second, events: 200 },
    ]);
    expect(frames.last).toEqual({ segment: second, end: 6000 });
    expect(framePayloads(frames.bytes()).map((bytes) => Buffer.from(bytes))).toEqual(payloads);
  });

  it('copies an event from within a larger buffer (a journal frame or read chunk)', () => {
    const payload = encoded('req-inner');
    const around = Buffer.concat([Buffer.from([1, 2, 3]), payload, Buffer.from([4])]);
    const frames = new UsageEventFrames();
    frames.append(around, 3, 3 + payload.length, segment(1), 99);
    expect(framePayloads(frames.bytes()).map((bytes) => Buffer.from(bytes))).toEqual([payload]);
  });

  it('refuses bytes that are not frames', () => {
    expect(() => framePayloads(Uint8Array.of(5, 0, 0, 0, 1))).toThrow(RangeError);
    expect(() => framePayloads(Uint8Array.of(1, 0))).toThrow(RangeError);
  });
});

describe('FramesBufferPool', () => {
  it('gives a released batch’s grown buffer to the next batch, and keeps no more than its limit', () => {
    const pool = new FramesBufferPool(1);
    const payloads = Array.from({ length: 1_000 }, (_, i) => encoded(`req-${i}`));
    const first = new UsageEventFrames(pool);
    for (const payload of payloads) first.append(payload, 0, payload.length, segment(1), 1);
    const grown = first.bytes().buffer;
    expect(grown.byteLength).toBeGreaterThan(64 * 1024);
    first.release();
    expect(first.bytes().length).toBe(0);

    const second = new UsageEventFrames(pool);
    const third = new UsageEventFrames(pool);
    expect(second.bytes().buffer).toBe(grown);
    expect(third.bytes().buffer).not.toBe(grown);
    second.append(payloads[7]!, 0, payloads[7]!.length, segment(1), 1);
    expect(framePayloads(second.bytes()).map((bytes) => Buffer.from(bytes))).toEqual([payloads[7]]);

    // Keeps one: the second release finds the pool full, so one of the next two batches gets a new buffer.
    second.release();
    third.release();
    const buffers = [new UsageEventFrames(pool), new UsageEventFrames(pool)].map((frames) => frames.bytes().buffer);
    expect(buffers[0]).toBe(grown);
    expect(buffers[1]).not.toBe(grown);
    expect(buffers[1]!.byteLength).toBe(64 * 1024);
  });
});

describe('usageKafkaRecords', () => {
  it('gives each event its record key, CloudEvents headers and timestamp from its own bytes', () => {
    const frames = new UsageEventFrames();
    const events = [encoded('req-a'), encoded('req-b', { apiKeyId: '', visitorId: 'visitor-9', accountId: '' })];
    for (const payload of events) frames.append(payload, 0, payload.length, segment(1), 1);
    const records = usageKafkaRecords(frames.bytes(), 'ipdata.usage.lookup.v1');
    expect(records.map((record) => record.key)).toEqual(['key-1', 'visitor-9']);
    expect(records[0]).toEqual({
      key: 'key-1',
      value: events[0],
      headers: cloudEventHeaders({
        id: 'req-a',
        type: 'ipdata.usage.lookup.v1',
        source: 'bff-en',
        time: '2025-01-02T03:04:05.678Z',
      }),
      timestamp: String(Date.parse('2025-01-02T03:04:05.678Z')),
    });
  });
});
