import { cloudEventHeaders } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import type { Segment } from './segment-journal.js';
import { UsageEventFrames, framePayloads, usageKafkaRecords } from './usage-event-frames.js';
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
