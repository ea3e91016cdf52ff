import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BatchItem } from '../batch-lookup.js';
import { batchJsonBody } from './batch-json.js';
import { ipInfoView } from './ip-info.view.js';

// Text JSON treats specially (quotes, backslashes, control characters, emoji, lone surrogates) or plain.
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', '🇺🇸', 'é', '北', 'a'), maxLength: 6 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const answer: fc.Arbitrary<BatchItem> = fc
  .record({
    ip: fc.ipV4(),
    countryCode: maybe(text),
    cityName: maybe(text),
    countryFlag: maybe(text),
    latitude: maybe(fc.float({ noNaN: true })),
    currency: maybe(fc.record({ code: text, name: maybe(text), symbol: maybe(text) })),
    reserved: fc.constantFrom(ReservedReason.RESERVED_REASON_UNSPECIFIED, ReservedReason.RESERVED_REASON_PRIVATE),
    startIp: fc.ipV4(),
    endIp: fc.ipV4(),
    networks: fc.array(fc.constantFrom('1.0.0.0/8', '10.0.0.0/8', '8.8.8.0/24')),
  })
  .map((fields) => ({ info: IpInfo.fromPartial(fields) }));
const refused: fc.Arbitrary<BatchItem> = fc.record({
  query: text,
  code: fc.constantFrom('invalid_ip' as const, 'quota_exceeded' as const),
  message: text,
});

const errorJson = (item: { query: string; code: string; message: string }) =>
  JSON.stringify({ query: item.query, error: { code: item.code, message: item.message } });

describe('batchJsonBody', () => {
  it('is the UTF-8 of JSON.stringify over the views and error items, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(answer, refused), { minLength: 1, maxLength: 30 }), (items) => {
        const expected = JSON.stringify(
          items.map((item) => ('info' in item ? ipInfoView(item.info) : (JSON.parse(errorJson(item)) as unknown))),
        );
        expect(batchJsonBody(items, errorJson).equals(Buffer.from(expected, 'utf8'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first guess of ~900 bytes per answer', () => {
    const long = '北'.repeat(2_000);
    const items: BatchItem[] = [{ info: IpInfo.fromPartial({ ip: '1.2.3.4', cityName: long, countryFlag: '🇺🇸' }) }];
    const body = batchJsonBody(items, errorJson);
    expect((JSON.parse(body.toString('utf8')) as Array<{ city_name: string }>)[0]?.city_name).toBe(long);
    expect(body.length).toBeGreaterThan(6_000);
  });
});
