import fc from 'fast-check';
import {
  BatchLookupCompactItem,
  BatchLookupCompactResponse,
  BatchLookupResponse,
  ChineseNames,
  IpInfo,
} from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { syntheticDataset } from '../../test/fixtures/synthetic-dataset.js';
import { LoadedDataset } from '../dataset/loaded-dataset.js';
import { AnswerEncoder } from '../lookup/answer-encoder.js';
import { CompactBatchEncoder } from '../lookup/compact-batch-encoder.js';
import { COUNTRY_FIELDS, OPERATOR_FIELDS, PER_ANSWER_FIELDS, PLACE_FIELDS, ZH_FIELDS } from '../lookup/ip-info-parts.js';
import { DecodeError } from '../wire/wire-cursor.js';
import {
  compactAnswerInfo,
  compactBatchItems,
  decodeBatchLookupCompactResponse,
  decodeCompactBatch,
} from './compact-batch-decoder.js';

const dataset = LoadedDataset.fromBytes(syntheticDataset('compact'));
const plain = new AnswerEncoder(dataset);
const compact = new CompactBatchEncoder(dataset);
const now = Date.UTC(2026, 10, 22, 12, 0, 0);

/** Addresses in every kind of range of the synthetic dataset, reserved ones, IPv6, mapped and bad input. */
const query = fc.oneof(
  fc.constantFrom(
    '1.0.0.77',
    '1.0.0.0',
    '1.0.0.255',
    '8.8.8.8',
    '114.114.114.1',
    '9.9.9.9',
    '0.0.0.0',
    '255.255.255.255',
    '10.1.2.3',
    '127.0.0.1',
    '2001:4860:4860::8888',
    '2001:4861::1',
    '::',
    '::1',
    'fe80::1',
    '::ffff:8.8.8.8',
    'not an ip',
    '1.2.3',
    '',
  ),
  fc.ipV4(),
  fc.ipV6(),
  // Long input gives items over 127 bytes (a two-byte length).
  fc.string({ maxLength: 200 }),
);

describe('BatchLookupCompact', () => {
  it('decodes to exactly what BatchLookup answers for the same addresses', () => {
    fc.assert(
      fc.property(fc.array(query, { maxLength: 60 }), (queries) => {
        const expected = BatchLookupResponse.decode(plain.encodeBatch(queries, now));
        expect(decodeBatchLookupCompactResponse(compact.encode(queries, now))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the parts and ranges as sent, and expands any one answer alone to the same IpInfo', () => {
    fc.assert(
      fc.property(fc.array(query, { maxLength: 40 }), (queries) => {
        const bytes = compact.encode(queries, now);
        const batch = decodeCompactBatch(bytes);
        const message = BatchLookupCompactResponse.decode(bytes);
        const { country, place, operator, zone } = batch.columns;
        expect(message.items.map((_, i) => [country[i], place[i], operator[i], zone[i]])).toEqual(
          message.items.map((item) =>
            item.error === '' ? [item.country, item.place, item.operator, item.timeZone] : [0, 0, 0, 0],
          ),
        );
        expect(batch.queries).toEqual(message.items.map((item) => item.query));
        expect(message.items.map((_, i) => batch.error(i))).toEqual(message.items.map((item) => item.error));
        for (const kind of ['countries', 'places', 'operators'] as const) {
          const positions = Array.from({ length: batch.count(kind) }, (_, i) => i + 1);
          const ids = message[kind === 'countries' ? 'countryIds' : kind === 'places' ? 'placeIds' : 'operatorIds'];
          expect(positions.map((at) => batch.partId(kind, at))).toEqual(ids);
          expect(positions.map((at) => batch.part(kind, at))).toEqual(message[kind]);
        }
        const items = compactBatchItems(batch);
        message.items.forEach((item, i) => {
          if (item.error === '') expect(compactAnswerInfo(batch, i)).toEqual(items[i]?.info);
          else expect(items[i]).toEqual({ query: item.query, info: undefined, error: item.error });
        });
      }),
      { numRuns: 200 },
    );
  });

  it('numbers each part once per encoder: equal ids under one epoch are equal parts, across responses', () => {
    const bytesById = new Map<number, string>();
    const idByBytes = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(query, { maxLength: 40 }), (queries) => {
        const message = BatchLookupCompactResponse.decode(compact.encode(queries, now));
        expect(message.partsEpoch).toBe(compact.partsEpoch);
        const lists = [
          [message.countries, message.countryIds],
          [message.places, message.placeIds],
          [message.operators, message.operatorIds],
        ] as const;
        for (const [parts, ids] of lists) {
          expect(ids).toHaveLength(parts.length);
          parts.forEach((part, i) => {
            const bytes = Buffer.from(IpInfo.encode(part).finish()).toString('hex');
            const id = ids[i] as number;
            expect(bytesById.get(id) ?? bytes).toBe(bytes);
            expect(idByBytes.get(bytes) ?? id).toBe(id);
            bytesById.set(id, bytes);
            idByBytes.set(bytes, id);
          });
        }
      }),
      { numRuns: 200 },
    );
    expect(bytesById.size).toBeGreaterThan(3);
    // Another encoder (another process, or another dataset) numbers under another epoch.
    expect(new CompactBatchEncoder(dataset).partsEpoch).not.toBe(compact.partsEpoch);
  });

  it('names no part ids when the lists and the ids disagree, or the engine sent none', () => {
    const message = BatchLookupCompactResponse.decode(compact.encode(['1.0.0.77', '8.8.8.8'], now));
    expect(decodeCompactBatch(compact.encode(['1.0.0.77', '8.8.8.8'], now)).partId('places', 1)).toBe(message.placeIds[0]);
    const short = decodeCompactBatch(BatchLookupCompactResponse.encode({ ...message, placeIds: [7] }).finish());
    expect([short.partId('places', 1), short.partId('places', 2)]).toEqual([-1, -1]);
    expect(short.partId('countries', 1)).toBe(message.countryIds[0]);
    const none = decodeCompactBatch(BatchLookupCompactResponse.encode({ ...message, partsEpoch: '', countryIds: [] }).finish());
    expect([none.partsEpoch, none.partId('countries', 1)]).toEqual(['', -1]);
  });

  it('reads the ids unpacked too (field 7 as one varint per id), as any protobuf parser must', () => {
    const message = BatchLookupCompactResponse.decode(compact.encode(['1.0.0.77', '8.8.8.8', '114.114.114.1'], now));
    const varint = (value: number): number[] =>
      value < 0x80 ? [value] : [(value & 0x7f) | 0x80, ...varint(Math.floor(value / 0x80))];
    // Tag 56: field 7 (country_ids), wire type 0 (varint).
    const unpacked = (ids: number[]) => Buffer.from(ids.flatMap((id) => [56, ...varint(id)]));
    const bytes = Buffer.concat([
      BatchLookupCompactResponse.encode({ ...message, countryIds: [] }).finish(),
      unpacked(message.countryIds),
    ]);
    const batch = decodeCompactBatch(bytes);
    expect(Array.from({ length: batch.count('countries') }, (_, i) => batch.partId('countries', i + 1))).toEqual(
      message.countryIds,
    );
  });

  it('sends each part once per response, before the first item that names it', () => {
    const queries = ['1.0.0.77', '1.0.0.78', '8.8.8.8', '1.0.0.1', '8.8.4.4', '2001:4860::1', '10.0.0.1', 'bogus'];
    const message = BatchLookupCompactResponse.decode(compact.encode(queries, now));
    for (const list of [message.countries, message.places, message.operators]) {
      const encoded = list.map((part) => Buffer.from(IpInfo.encode(part).finish()).toString('hex'));
      expect(new Set(encoded).size).toBe(encoded.length);
    }
    expect(message.timeZones.map((zone) => zone.name)).toEqual(['Australia/Sydney', 'America/Los_Angeles']);
    // Two Sydney addresses share every part; the reserved and the invalid one name none.
    const refs = (item: BatchLookupCompactItem) => [item.country, item.place, item.operator, item.timeZone];
    expect(refs(message.items[0] as BatchLookupCompactItem)).toEqual(refs(message.items[1] as BatchLookupCompactItem));
    expect(refs(message.items[6] as BatchLookupCompactItem)).toEqual([0, 0, 0, 0]);
    expect(message.items[7]).toMatchObject({ query: 'bogus', error: 'invalid IP address: bogus', country: 0 });
    expect(message.items[7]?.first.length).toBe(0);
    // Parts travel as the field groups of ip-info-parts.ts only.
    expect(message.countries[0]).toMatchObject({ countryCode: 'AU', cityName: undefined, asn: undefined });
    expect(message.places[0]).toMatchObject({ cityName: 'Sydney', countryCode: undefined, asn: undefined });
    expect(message.operators[0]).toMatchObject({ asn: { asn: 13335 }, countryCode: undefined, cityName: undefined });
  });

  it('accepts parts after the items that name them (any field order is valid protobuf)', () => {
    const queries = ['1.0.0.77', '8.8.8.8', '2001:4860::1', '10.0.0.1', 'bogus'];
    const message = BatchLookupCompactResponse.decode(compact.encode(queries, now));
    const reordered = Buffer.concat([
      BatchLookupCompactResponse.encode({ ...message, countries: [], places: [], operators: [], timeZones: [] }).finish(),
      BatchLookupCompactResponse.encode({ ...message, items: [] }).finish(),
    ]);
    expect(decodeBatchLookupCompactResponse(reordered)).toEqual(BatchLookupResponse.decode(plain.encodeBatch(queries, now)));
  });

  it('refuses answers that name missing parts, lack a range or are cut short', () => {
    const item = { query: '1.0.0.1', first: Buffer.from([1, 0, 0, 0]), last: Buffer.from([1, 0, 0, 255]) };
    const encode = (items: Array<Partial<BatchLookupCompactItem>>) =>
      BatchLookupCompactResponse.encode(
        BatchLookupCompactResponse.fromPartial({ items: items.map((entry) => BatchLookupCompactItem.fromPartial(entry)) }),
      ).finish();
    expect(() => decodeBatchLookupCompactResponse(encode([{ ...item, country: 1 }]))).toThrow(DecodeError);
    expect(() => decodeBatchLookupCompactResponse(encode([{ query: '1.0.0.1' }]))).toThrow('without a range');
    expect(() => decodeBatchLookupCompactResponse(encode([{ ...item, last: Buffer.from([1, 0, 0]) }]))).toThrow(
      'an address of 3 bytes',
    );
    const bytes = compact.encode(['1.0.0.77', '8.8.8.8'], now);
    expect(() => decodeBatchLookupCompactResponse(bytes.subarray(0, bytes.length - 2))).toThrow(DecodeError);
  });

  it('splits IpInfo into groups that cover every field exactly once', () => {
    const groups = [...COUNTRY_FIELDS, ...PLACE_FIELDS, ...OPERATOR_FIELDS, ...PER_ANSWER_FIELDS];
    expect([...groups].sort()).toEqual(Object.keys(IpInfo.fromPartial({})).sort());
    const zh = [...ZH_FIELDS.country, ...ZH_FIELDS.place, ...ZH_FIELDS.operator];
    expect([...zh].sort()).toEqual(Object.keys(ChineseNames.fromPartial({})).sort());
  });
});
