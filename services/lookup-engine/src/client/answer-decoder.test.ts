import fc from 'fast-check';
import {
  BatchLookupResponse,
  IpInfo,
  LookupResponse,
  ReservedReason,
  type BatchLookupItem,
} from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { syntheticDataset } from '../../test/fixtures/synthetic-dataset.js';
import { LoadedDataset } from '../dataset/loaded-dataset.js';
import { AnswerEncoder } from '../lookup/answer-encoder.js';
import { DecodeError } from '../wire/wire-cursor.js';
import { decodeBatchLookupResponse, decodeLookupResponse } from './answer-decoder.js';

const text = fc.string({ unit: 'grapheme', maxLength: 80 });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const double = fc.double({ noNaN: true });

/** Any IpInfo the schema allows (ASCII addresses, as the engine writes them). */
const ipInfo: fc.Arbitrary<IpInfo> = fc.record({
  ip: fc.ipV4(),
  countryCode: maybe(text),
  countryName: maybe(text),
  countryCapital: maybe(text),
  regionName: maybe(text),
  cityName: maybe(text),
  latitude: maybe(double),
  longitude: maybe(double),
  zipCode: maybe(text),
  isEu: maybe(fc.boolean()),
  callingCode: maybe(text),
  countryFlag: maybe(text),
  weatherStationCode: maybe(text),
  weatherStationName: maybe(text),
  elevation: maybe(double),
  asn: maybe(
    fc.record({
      asn: fc.integer({ min: 0, max: 0xffffffff }),
      asnName: maybe(text),
      domain: maybe(text),
      usageType: maybe(text),
      isp: maybe(text),
      organization: maybe(text),
    }),
  ),
  timeZone: maybe(fc.record({ name: text, offset: text, currentTime: text })),
  currency: maybe(fc.record({ code: text, name: maybe(text), symbol: maybe(text) })),
  isProxy: fc.boolean(),
  proxyData: maybe(
    fc.record({
      isVpn: fc.boolean(),
      isTor: fc.boolean(),
      isDataCenter: fc.boolean(),
      isProxy: fc.boolean(),
      isRelay: fc.boolean(),
      isHosting: fc.boolean(),
    }),
  ),
  startIp: fc.oneof(fc.ipV4(), fc.ipV6()),
  endIp: fc.oneof(fc.ipV4(), fc.ipV6()),
  networks: fc.array(
    fc.ipV4().map((ip) => `${ip}/32`),
    { maxLength: 6 },
  ),
  zh: maybe(fc.record({ country: maybe(text), province: maybe(text), city: maybe(text), isp: maybe(text) })),
  reserved: fc.constantFrom(
    ReservedReason.RESERVED_REASON_UNSPECIFIED,
    ReservedReason.RESERVED_REASON_PRIVATE,
    ReservedReason.RESERVED_REASON_MULTICAST,
    ReservedReason.RESERVED_REASON_OTHER,
  ),
});

const item: fc.Arbitrary<BatchLookupItem> = fc.oneof(
  fc.record({ query: text, info: ipInfo, error: fc.constant(undefined) }),
  fc.record({ query: text, info: fc.constant(undefined), error: text }),
);

/** An unknown field (number 99, each wire type) appended to a message, as a newer engine might send. */
function withUnknownFields(bytes: Uint8Array): Buffer {
  const unknown = Buffer.from([
    0x98,
    0x06,
    0x2a, // 99: varint 42
    0x99,
    0x06,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8, // 99: 64-bit
    0x9a,
    0x06,
    0x02,
    0x68,
    0x69, // 99: length-delimited "hi"
    0x9d,
    0x06,
    1,
    2,
    3,
    4, // 99: 32-bit
  ]);
  return Buffer.concat([bytes, unknown]);
}

describe('answer decoder', () => {
  it('decodes BatchLookupResponse exactly like the generated codec', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const bytes = BatchLookupResponse.encode({ items }).finish();
        expect(decodeBatchLookupResponse(bytes)).toStrictEqual(BatchLookupResponse.decode(bytes));
        const extended = withUnknownFields(bytes);
        expect(decodeBatchLookupResponse(extended)).toStrictEqual(BatchLookupResponse.decode(extended));
      }),
      { numRuns: 300 },
    );
  });

  it('decodes LookupResponse exactly like the generated codec, skipping unknown fields in nested messages', () => {
    fc.assert(
      fc.property(ipInfo, (info) => {
        const bytes = LookupResponse.encode({ info }).finish();
        expect(decodeLookupResponse(bytes)).toStrictEqual(LookupResponse.decode(bytes));
        // The same unknown fields inside IpInfo itself.
        const inner = withUnknownFields(IpInfo.encode(info).finish());
        const wrapped = Buffer.concat([Buffer.from([0x0a]), varint(inner.length), inner]);
        expect(decodeLookupResponse(wrapped)).toStrictEqual(LookupResponse.decode(wrapped));
      }),
      { numRuns: 300 },
    );
  });

  it('decodes the engine answers like the generated codec', () => {
    const dataset = LoadedDataset.fromBytes(syntheticDataset('decoder'));
    const encoder = new AnswerEncoder(dataset);
    const queries = ['1.0.0.77', '8.8.8.8', '2001:4860:4860::8888', '10.1.2.3', 'not an ip', '::ffff:8.8.8.8', '1.0.0.78'];
    const bytes = encoder.encodeBatch(queries, Date.UTC(2026, 10, 22));
    const decoded = decodeBatchLookupResponse(bytes);
    expect(decoded).toStrictEqual(BatchLookupResponse.decode(bytes));
    expect(decoded.items.map((entry) => entry.error ?? entry.info?.cityName)).toEqual([
      'Sydney',
      'Mountain View',
      'Berlin',
      undefined,
      'invalid IP address: not an ip',
      'Mountain View',
      'Sydney',
    ]);
  });

  it('keeps strings apart that share length, head and tail (interning collisions)', () => {
    const names = ['abcd-one-wxyz', 'abcd-two-wxyz', 'abcd-one-wxyz', 'a', 'b', '', 'é', '北京'];
    const bytes = BatchLookupResponse.encode({
      items: names.map((name) => ({ query: name, info: IpInfo.fromPartial({ cityName: name, regionName: name }) })),
    }).finish();
    expect(decodeBatchLookupResponse(bytes).items.map((entry) => [entry.info?.cityName, entry.info?.regionName])).toEqual(
      names.map((name) => [name, name]),
    );
  });

  it('refuses truncated input with a DecodeError', () => {
    const bytes = BatchLookupResponse.encode({
      items: [{ query: '1.2.3.4', info: IpInfo.fromPartial({ cityName: 'Sydney' }) }],
    }).finish();
    expect(() => decodeBatchLookupResponse(bytes.subarray(0, bytes.length - 3))).toThrow(DecodeError);
  });
});

function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value >= 0x80) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return Buffer.from(bytes);
}
