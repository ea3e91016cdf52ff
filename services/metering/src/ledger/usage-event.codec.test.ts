import fc from 'fast-check';
import { InvalidArgumentError } from '@ipdata/common';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { describe, expect, it } from 'vitest';
import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import { encodeFrames, splitFrames } from './usage-frames.js';
import { toUsageEvent, type UsageRecord } from './usage-record.js';

// 'binary' includes lone surrogates: both encoders must write U+FFFD for them.
const text = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const uint = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 0xffffffff }));

const usageRecord: fc.Arbitrary<UsageRecord> = fc.record({
  requestId: fc.string({ minLength: 1, maxLength: 200 }),
  channel: fc.constantFrom(0, 1, 2, 3),
  accountId: text,
  apiKeyId: text,
  visitorId: text,
  endpoint: text,
  ip: text,
  ipVersion: fc.constantFrom(0 as const, 4 as const, 6 as const),
  countryCode: text,
  province: fc.constantFrom('', '广东', '北京市'),
  result: fc.constantFrom(0, 1, 2, 3, 4),
  httpStatus: uint,
  latencyMs: fc.oneof(uint, fc.double({ min: -5, max: 1e10, noNaN: true })),
  count: uint,
  freeCount: uint,
  time: fc.date({ min: new Date(0), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
  plat: fc.option(fc.constantFrom('', 'pc', 'wap'), { nil: undefined }),
});

function encode(record: UsageRecord, source: string): Buffer {
  const buf = Buffer.alloc(maxEncodedBytes(record, source) + 16);
  return buf.subarray(3, encodeUsageRecord(record, source, buf, 3));
}

describe('encodeUsageRecord', () => {
  it('writes exactly the bytes of the generated UsageEvent encoder', () => {
    fc.assert(
      fc.property(usageRecord, fc.constantFrom('bff-en', 'bff-cn', 's'.repeat(150)), (record, source) => {
        const expected = Buffer.from(UsageEvent.encode(toUsageEvent(record, source)).finish());
        expect(encode(record, source).toString('hex')).toBe(expected.toString('hex'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips through the generated decoder', () => {
    const record: UsageRecord = {
      requestId: 'req-1',
      channel: 1,
      accountId: 'acc',
      apiKeyId: 'key',
      visitorId: '',
      endpoint: '/v1/batch',
      ip: '',
      ipVersion: 0,
      countryCode: '',
      province: '',
      result: 1,
      httpStatus: 207,
      latencyMs: 12.6,
      count: 998,
      freeCount: 2,
      time: new Date('2025-03-04T05:06:07.089Z'),
    };
    expect(UsageEvent.decode(encode(record, 'bff-en'))).toEqual(toUsageEvent(record, 'bff-en'));
    expect(toUsageEvent(record, 'bff-en')).toMatchObject({ latencyMs: 13, count: 998, freeCount: 2, httpStatus: 207 });
  });

  it('refuses a record without request id or with an invalid time', () => {
    const base = { requestId: 'r', channel: 1, accountId: '', apiKeyId: '', visitorId: '', endpoint: '', ip: '' };
    const rest = {
      ipVersion: 4 as const,
      countryCode: '',
      province: '',
      result: 1,
      httpStatus: 200,
      latencyMs: 0,
      count: 1,
      freeCount: 0,
    };
    expect(() => encode({ ...base, ...rest, requestId: '', time: new Date() }, 'x')).toThrow(InvalidArgumentError);
    expect(() => encode({ ...base, ...rest, time: new Date(Number.NaN) }, 'x')).toThrow(InvalidArgumentError);
  });
});

describe('usage frames (one stream entry)', () => {
  it('hold each record as its own UsageEvent, in order', () => {
    fc.assert(
      fc.property(fc.array(usageRecord, { maxLength: 30 }), (records) => {
        const events = splitFrames(encodeFrames(records, 'bff-cn')).map((bytes) => UsageEvent.decode(bytes));
        expect(events).toEqual(records.map((record) => toUsageEvent(record, 'bff-cn')));
      }),
      { numRuns: 300 },
    );
  });

  it('refuse a group cut short', () => {
    const frames = encodeFrames(
      [
        { ...sample(), requestId: 'a' },
        { ...sample(), requestId: 'b' },
      ],
      'bff-en',
    );
    expect(splitFrames(frames)).toHaveLength(2);
    expect(() => splitFrames(frames.subarray(0, frames.length - 1))).toThrow(RangeError);
    expect(() => splitFrames(frames.subarray(0, 2))).toThrow(RangeError);
  });
});

function sample(): UsageRecord {
  return fc.sample(usageRecord, { numRuns: 1, seed: 7 })[0] as UsageRecord;
}
