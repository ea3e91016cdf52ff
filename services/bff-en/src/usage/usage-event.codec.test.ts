import fc from 'fast-check';
import { InvalidArgumentError } from '@ipdata/common';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { describe, expect, it } from 'vitest';
import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import { readUsageEventFacts } from './usage-event-frames.js';
import { toUsageEvent, usageEventKey, type UsageRecord } from './usage-record.js';

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

describe('readUsageEventFacts', () => {
  it('reads id, source, time and record key as the generated decoder does', () => {
    fc.assert(
      fc.property(usageRecord, fc.constantFrom('bff-en', 'bff-cn', 's'.repeat(150)), (record, source) => {
        const bytes = UsageEvent.encode(toUsageEvent(record, source)).finish();
        const decoded = UsageEvent.decode(bytes);
        expect(readUsageEventFacts(bytes)).toEqual({
          id: decoded.meta?.id,
          source: decoded.meta?.source,
          timeMs: decoded.meta?.time?.getTime(),
          key: usageEventKey(decoded),
        });
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses bytes that end inside a field', () => {
    const bytes = UsageEvent.encode(toUsageEvent(usageRecordOf('req-1'), 'bff-en')).finish();
    expect(() => readUsageEventFacts(bytes.subarray(0, bytes.length - 3))).toThrow(RangeError);
  });
});

function usageRecordOf(requestId: string): UsageRecord {
  return fc
    .sample(usageRecord, { numRuns: 1, seed: 7 })
    .map((record) => ({ ...record, requestId, apiKeyId: 'key-1' }))[0] as UsageRecord;
}
