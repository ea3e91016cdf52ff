import { describe, expect, it } from 'vitest';
import { DatasetFormatError, FLAG, NONE } from './dataset-layout.js';
import { decodeRecord, openDataset } from './dataset-reader.js';
import { encodeDataset, type DatasetContent } from './dataset-writer.js';

function sample(): DatasetContent {
  return {
    datasetVersion: '2026.11.22-1',
    builtAt: new Date('2026-11-22T08:00:00Z'),
    sources: [{ name: 'geolite2-city', version: '2.3.2026061719', licence: 'CC BY-SA 4.0' }],
    records: [
      {
        fields: {
          country_code: 'AU',
          country_name: 'Australia',
          city_name: 'Sydney',
          zh_country: '澳大利亚',
          time_zone: 'Australia/Sydney',
        },
        asn: 13335,
        latitude: -33.8688,
        longitude: 151.2093,
        flags: FLAG.isDataCenter | FLAG.isHosting,
      },
      { fields: { country_code: 'CN', zh_province: '北京', zip_code: '' }, asn: null, latitude: null, longitude: null, flags: 0 },
    ],
    ipv4: { starts: Uint32Array.from([0, 0x01000000, 0x01000100]), records: Uint32Array.from([NONE, 0, 1]) },
    ipv6: { starts: Uint32Array.from([0, 0, 0, 0, 0x20010000, 0, 0, 0]), records: Uint32Array.from([NONE, 1]) },
    asns: [
      {
        asn: 13335,
        name: 'Cloudflare, Inc.',
        organization: 'Cloudflare, Inc.',
        countryCode: 'US',
        usageType: null,
        prefixesV4: [[0x01000000, 24]],
        prefixesV6: [[[0x26064700, 0, 0, 0], 32]],
      },
    ],
  };
}

describe('dataset file format', () => {
  it('round-trips records, ranges, ASNs and the header', () => {
    const content = sample();
    const view = openDataset(encodeDataset(content));
    expect(view.header).toMatchObject({
      datasetVersion: '2026.11.22-1',
      builtAt: '2026-11-22T08:00:00.000Z',
      sources: content.sources,
    });
    expect(view.header.counts).toEqual({
      strings: expect.any(Number) as number,
      records: 2,
      ipv4Ranges: 3,
      ipv6Ranges: 2,
      asns: 1,
    });
    const first = decodeRecord(view, 0);
    expect(first.fields).toMatchObject({ country_code: 'AU', city_name: 'Sydney', zh_country: '澳大利亚', region_name: null });
    expect(first.asn).toBe(13335);
    expect(first.latitude).toBe(Math.fround(-33.8688));
    expect(first.flags).toBe(FLAG.isDataCenter | FLAG.isHosting);
    expect(decodeRecord(view, 1)).toMatchObject({ asn: null, latitude: null, fields: { zip_code: null, zh_province: '北京' } });
    expect([...view.ipv4Starts]).toEqual([0, 0x01000000, 0x01000100]);
    expect([...view.ipv4Records]).toEqual([NONE, 0, 1]);
    expect([...view.ipv6Starts]).toEqual([0, 0, 0, 0, 0x20010000, 0, 0, 0]);
    expect([...view.asnTable.subarray(0, 1)]).toEqual([13335]);
    expect([...view.asnPrefixesV6]).toEqual([0x26064700, 0, 0, 0, 32]);
  });

  it('writes byte-identical files for the same content', () => {
    expect(encodeDataset(sample()).equals(encodeDataset(sample()))).toBe(true);
  });

  it('refuses a bad magic, a bad checksum, a truncated file and a future version', () => {
    const good = encodeDataset(sample());
    const badMagic = Buffer.from(good);
    badMagic.write('NOTADSET', 0, 'latin1');
    expect(() => openDataset(badMagic)).toThrowError(new DatasetFormatError('bad magic: not an ipdata dataset file'));

    const flipped = Buffer.from(good);
    flipped[200] = (flipped[200] as number) ^ 0xff;
    expect(() => openDataset(flipped)).toThrowError(/checksum mismatch/);

    expect(() => openDataset(good.subarray(0, good.length - 100))).toThrowError(/truncated/);

    const future = Buffer.from(good);
    future.writeUInt32LE(99, 8);
    expect(() => openDataset(future)).toThrowError(/unsupported format version 99/);
  });

  it('refuses to write ranges that do not partition the address space', () => {
    const content = sample();
    content.ipv4 = { starts: Uint32Array.from([0, 5, 5]), records: Uint32Array.from([NONE, 0, 1]) };
    expect(() => encodeDataset(content)).toThrowError(/not strictly ascending/);
  });
});
