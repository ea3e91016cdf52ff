import { BatchLookupCompactItem, BatchLookupCompactResponse, IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIpv4 } from '@ipdata/common/ip';
import {
  ANSWER_ERROR,
  compactAnswerInfo,
  decodeCompactBatch,
  type CompactBatch,
  type CompactPartKind,
} from '@ipdata/lookup-engine/client';
import { mapBatchItems, type BatchItem } from '../batch-lookup.js';
import { answerJson, batchJsonBody } from './batch-json.js';
import { ipInfoView } from './ip-info.view.js';
import { ipInfoJson } from './json-output.js';

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

const u32 = fc.integer({ min: 0, max: 0xffffffff });

/** One number per distinct part of a kind, across runs: the engine's numbering under one epoch. */
const partNumbers = new Map<string, number>();
function partNumber(kind: CompactPartKind, part: IpInfo): number {
  const content = `${kind} ${JSON.stringify(IpInfo.toJSON(part))}`;
  let id = partNumbers.get(content);
  if (id === undefined) partNumbers.set(content, (id = partNumbers.size));
  return id;
}

/** An IPv4 address as the engine sends a range's end: 4 bytes, big-endian. */
const ipv4Bytes = (value: number) => Buffer.from([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);
const IPV6_FIRST = Buffer.from('20010db8000000000000000000000000', 'hex');
const IPV6_LAST = Buffer.from('20010db800000000000000000000ffff', 'hex');

/** A compact item of an IPv4 answer naming no parts. */
const item = (query: string, first: number, last: number) =>
  BatchLookupCompactItem.fromPartial({ query, first: ipv4Bytes(first), last: ipv4Bytes(last) });

/** The items of a compact batch's decoded bytes, in order. */
const itemsOf = (batch: CompactBatch): BatchItem[] => Array.from({ length: batch.length }, (_, at) => ({ batch, at }));

/**
 * A compact batch as the engine could send it (parts with any text, answers naming any of them
 * or none), encoded by the generated codec and decoded by the client's decoder.
 */
const compactItems: fc.Arbitrary<BatchItem[]> = fc
  .record({
    countries: fc.array(
      fc.record({
        countryCode: maybe(text),
        countryName: maybe(text),
        isEu: maybe(fc.boolean()),
        countryFlag: maybe(text),
        currency: maybe(fc.record({ code: text, name: maybe(text), symbol: maybe(text) })),
      }),
      { maxLength: 4 },
    ),
    places: fc.array(
      fc.record({ regionName: maybe(text), cityName: maybe(text), latitude: maybe(fc.float()), elevation: maybe(fc.integer()) }),
      { maxLength: 4 },
    ),
    operators: fc.array(
      fc.record({
        asn: maybe(fc.record({ asn: fc.nat(), asnName: maybe(text), organization: maybe(text) })),
        isProxy: fc.boolean(),
        proxyData: maybe(fc.record({ isVpn: fc.boolean(), isTor: fc.boolean() })),
      }),
      { maxLength: 4 },
    ),
    zones: fc.array(fc.record({ name: text, offset: text, currentTime: text }), { maxLength: 3 }),
    numbered: fc.boolean(),
    answers: fc.array(
      fc.record({
        range: fc.tuple(u32, u32, fc.double({ min: -0.1, max: 1.1, noNaN: true })),
        positions: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
        query: fc.oneof(fc.constant(''), fc.constantFrom('::ffff:8.8.8.8', '2001:db8::1', '1.02.3.4')),
        ipv6: fc.boolean(),
        reserved: fc.constantFrom(ReservedReason.RESERVED_REASON_UNSPECIFIED, ReservedReason.RESERVED_REASON_DOCUMENTATION),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map((drawn) => {
    const parts = {
      countries: drawn.countries.map((fields) => IpInfo.fromPartial(fields)),
      places: drawn.places.map((fields) => IpInfo.fromPartial(fields)),
      operators: drawn.operators.map((fields) => IpInfo.fromPartial(fields)),
    };
    // Equal ids for equal parts under one epoch, as the engine numbers them: parts drawn again in
    // later runs meet the cache (no epoch and no ids: an engine that sends none, nothing cached).
    const ids = (kind: CompactPartKind) => (drawn.numbered ? parts[kind].map((part) => partNumber(kind, part)) : []);
    const pick = (n: number, count: number) => n % (count + 1);
    const message = BatchLookupCompactResponse.fromPartial({
      ...parts,
      timeZones: drawn.zones,
      partsEpoch: drawn.numbered ? 'test-epoch' : '',
      countryIds: ids('countries'),
      placeIds: ids('places'),
      operatorIds: ids('operators'),
      items: drawn.answers.map(({ range: [a, b, where], positions: at, query, ipv6, reserved }) => {
        const [first, last] = a <= b ? [a, b] : [b, a];
        // Mostly inside the range, sometimes just outside it (no network holds it).
        const address = Math.max(0, Math.min(0xffffffff, first + Math.floor(where * (last - first + 1))));
        return {
          query: query === '' ? formatIpv4(address) : query,
          country: pick(at[0], parts.countries.length),
          place: pick(at[1], parts.places.length),
          operator: pick(at[2], parts.operators.length),
          timeZone: pick(at[3], drawn.zones.length),
          first: ipv6 ? IPV6_FIRST : ipv4Bytes(first),
          last: ipv6 ? IPV6_LAST : ipv4Bytes(last),
          reserved,
        };
      }),
    });
    return itemsOf(decodeCompactBatch(BatchLookupCompactResponse.encode(message).finish()));
  });

const errorJson = (item: { query: string; code: string; message: string }) =>
  JSON.stringify({ query: item.query, error: { code: item.code, message: item.message } });

describe('batchJsonBody', () => {
  it('is the UTF-8 of JSON.stringify over the views and error items, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(answer, refused), { minLength: 1, maxLength: 30 }), (items) => {
        const expected = JSON.stringify(
          mapBatchItems<unknown>(items, ipInfoView, (item) => JSON.parse(errorJson(item)) as unknown),
        );
        expect(batchJsonBody(items, errorJson).equals(Buffer.from(expected, 'utf8'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the answers of a compact batch from their parts exactly as the general way writes each answer', () => {
    fc.assert(
      fc.property(compactItems, fc.array(fc.oneof(answer, refused), { maxLength: 4 }), (compact, others) => {
        const items = [...compact, ...others, ...compact];
        const expected = JSON.stringify(
          mapBatchItems<unknown>(items, ipInfoView, (item) => JSON.parse(errorJson(item)) as unknown),
        );
        expect(batchJsonBody(items, errorJson).toString('utf8')).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('writes each batch its own zone time, however alike the zones of two batches look', () => {
    const batchOf = (zone: { name: string; offset: string; currentTime: string }): BatchItem[] =>
      itemsOf(
        decodeCompactBatch(
          BatchLookupCompactResponse.encode({
            ...BatchLookupCompactResponse.fromPartial({}),
            timeZones: [zone],
            items: [{ ...item('8.8.8.8', 0x08080800, 0x080808ff), timeZone: 1 }],
          }).finish(),
        ),
      );
    const zoneOf = (items: BatchItem[]) =>
      (JSON.parse(batchJsonBody(items, errorJson).toString('utf8')) as Array<{ time_zone: unknown }>)[0]?.time_zone;
    for (const zone of [
      { name: 'America/Chicago', offset: '-06:00', currentTime: '2026-11-28T10:00:00-06:00' },
      { name: 'America/Chicago', offset: '-06:00', currentTime: '2026-11-28T10:00:01-06:00' },
      { name: 'd', offset: 'b|c', currentTime: 'a' },
      { name: 'd', offset: 'c', currentTime: 'a|b' },
    ]) {
      expect(zoneOf(batchOf(zone))).toEqual({ name: zone.name, offset: zone.offset, current_time: zone.currentTime });
    }
  });

  it('writes an answer whose part is too large to cache the general way, and bodies of several MB whole', () => {
    const huge = IpInfo.fromPartial({ cityName: '北'.repeat(30_000) });
    const message = BatchLookupCompactResponse.fromPartial({
      places: [huge],
      partsEpoch: 'test-epoch-huge',
      placeIds: [1],
      items: Array.from({ length: 200 }, (_, i) => ({ ...item(formatIpv4(0x01000000 + i), 0x01000000, 0x010000ff), place: 1 })),
    });
    const items = itemsOf(decodeCompactBatch(BatchLookupCompactResponse.encode(message).finish()));
    const body = batchJsonBody(items, errorJson);
    expect(body.length).toBeGreaterThan(200 * 90_000);
    expect(body.toString('utf8')).toBe(JSON.stringify(mapBatchItems<unknown>(items, ipInfoView, () => null)));
  });

  it('grows past its first guess of ~900 bytes per answer', () => {
    const long = '北'.repeat(2_000);
    const items: BatchItem[] = [{ info: IpInfo.fromPartial({ ip: '1.2.3.4', cityName: long, countryFlag: '🇺🇸' }) }];
    const body = batchJsonBody(items, errorJson);
    expect((JSON.parse(body.toString('utf8')) as Array<{ city_name: string }>)[0]?.city_name).toBe(long);
    expect(body.length).toBeGreaterThan(6_000);
  });
});

describe('answerJson', () => {
  it("writes each answer of a compact batch as the general serialiser writes the answer's IpInfo", () => {
    fc.assert(
      fc.property(compactItems, (items) => {
        const batch = (items[0] as { batch: CompactBatch }).batch;
        // Another batch written in between: a batch's answers are written together, at its first call.
        const first = answerJson(batch, 0);
        batchJsonBody(items, errorJson);
        for (let at = 0; at < batch.length; at++) {
          const body = answerJson(batch, at);
          if (batch.columns.form[at] === ANSWER_ERROR) {
            expect(body.length).toBe(0);
            continue;
          }
          const info = compactAnswerInfo(batch, at);
          expect(body.toString('utf8')).toBe(ipInfoJson(ipInfoView(info), info));
        }
        expect(answerJson(batch, 0)).toBe(first);
      }),
      { numRuns: 300 },
    );
  });

  it('writes nothing for an answer the engine failed, and the answers around it whole', () => {
    const message = BatchLookupCompactResponse.fromPartial({
      countries: [IpInfo.fromPartial({ countryCode: 'US', countryName: 'United States' })],
      items: [
        { ...item('8.8.8.8', 0x08080800, 0x080808ff), country: 1 },
        { query: '8.8.4.4', error: 'no dataset loaded' },
        item('1.1.1.1', 0x01010100, 0x010101ff),
      ],
    });
    const batch = decodeCompactBatch(BatchLookupCompactResponse.encode(message).finish());
    expect(answerJson(batch, 1).length).toBe(0);
    expect(JSON.parse(answerJson(batch, 0).toString('utf8'))).toMatchObject({
      ip: '8.8.8.8',
      country_code: 'US',
      network: '8.8.8.0/24',
    });
    expect(JSON.parse(answerJson(batch, 2).toString('utf8'))).toMatchObject({
      ip: '1.1.1.1',
      country_code: null,
      end_ip: '1.1.1.255',
    });
  });
});
