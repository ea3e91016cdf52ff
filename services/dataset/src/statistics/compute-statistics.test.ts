import { describe, expect, it } from 'vitest';
import { FLAG, NONE, type DatasetContent, type DatasetRecord } from '../format/index.js';
import { computeStatistics } from './compute-statistics.js';
import { parseStatistics } from './statistics-file.js';

const v4 = (text: string) => text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
const HOSTING = FLAG.isDataCenter | FLAG.isHosting;

const record = (fields: DatasetRecord['fields'], asn: number | null = null, flags = 0): DatasetRecord => ({
  fields,
  asn,
  latitude: null,
  longitude: null,
  flags,
});
const alibaba = { organization: 'Hangzhou Alibaba Advertising Co.,Ltd.', usage_type: 'DCH', privacy_rule: 'hosting-asn' };
const tencent = { organization: 'Shenzhen Tencent Computer Systems Company Limited' };

/** Hand-made tables whose counts are known exactly (comments give each range's size). */
function content(): DatasetContent {
  return {
    datasetVersion: '2026.11.01-test',
    builtAt: new Date('2026-11-01T00:00:00Z'),
    sources: [],
    records: [
      /* 0 */ record(
        { country_code: 'CN', country_name: 'China', zh_province: '广东', zh_isp: '阿里云', ...alibaba },
        37963,
        HOSTING,
      ),
      /* 1 */ record({ country_code: 'CN', zh_province: '广东深圳市', zh_isp: '阿里云BGP数据中心', ...alibaba }, 37963, HOSTING),
      /* 2 */ record({ country_code: 'CN', zh_province: '北京', ...tencent }, 45090, HOSTING),
      /* 3 */ record({ country_code: 'CN', zh_province: '加利福尼亚州', organization: 'Chinanet' }, 4134),
      /* 4: flagged by usage type only */ record(
        { country_code: 'HK', country_name: 'Hong Kong', zh_province: '香港', zh_isp: '腾讯云', usage_type: 'DCH', ...tencent },
        132203,
      ),
      /* 5 */ record({ country_code: 'US', country_name: 'United States' }, 16509, HOSTING),
      /* 6 */ record({ zh_country: 'IANA' }),
      /* 7 */ record({ country_code: 'DE', country_name: 'Germany' }),
      /* 8 */ record({ country_code: 'CN', zh_province: '广东', zh_isp: '阿里云', ...alibaba }, 37963, HOSTING),
      /* 9: hosting in CN without any organisation: nothing names it */ record(
        { country_code: 'CN', zh_province: '北京' },
        null,
        HOSTING,
      ),
    ],
    ipv4: {
      starts: Uint32Array.from([
        0,
        v4('1.0.0.0'), // 256 → 0
        v4('1.0.1.0'), // 256 → 1 (joins 1.0.0.0/24: one /23)
        v4('1.0.2.0'),
        v4('1.0.3.0'), // 256 → 0 (a second run)
        v4('1.0.4.0'),
        v4('2.0.0.0'), // 192 → 2: /25 + /26
        v4('2.0.0.192'),
        v4('3.0.0.0'), // 65,536 → 3
        v4('3.1.0.0'),
        v4('4.0.0.0'), // 4 → 4
        v4('4.0.0.4'),
        v4('5.0.0.0'), // 8 → 9
        v4('5.0.0.8'),
        v4('8.0.0.0'), // 16,777,216 → 5
        v4('9.0.0.0'),
        v4('10.0.0.0'), // 16,777,216 → 6
        v4('11.0.0.0'),
        v4('255.255.255.0'), // 256 → 5, the last range
      ]),
      records: Uint32Array.from([NONE, 0, 1, NONE, 0, NONE, 2, NONE, 3, NONE, 4, NONE, 9, NONE, 5, NONE, 6, NONE, 5]),
    },
    ipv6: {
      starts: Uint32Array.from([
        ...[0, 0, 0, 0],
        ...[0x24000000, 0, 0, 0], // 2400::/32, 2^96 → 8
        ...[0x24000001, 0, 0, 0],
        ...[0x2a010000, 0, 0, 0], // 2a01::/16, 2^112 → 7
        ...[0x2a020000, 0, 0, 0],
        ...[0xf0000000, 0, 0, 0], // f000::/4 to the top, 2^124 → 7
      ]),
      records: Uint32Array.from([NONE, 8, NONE, 7, NONE, 7]),
    },
    asns: [],
  };
}

describe('computeStatistics', () => {
  const statistics = computeStatistics(content());

  it('counts addresses per country by the GeoLite2 code, IPv6 exactly as decimal text', () => {
    expect(statistics.countries).toEqual([
      { code: 'US', nameEn: 'United States', nameZh: '美国', ipv4: 16_777_216 + 256, ipv6: '0' },
      { code: 'CN', nameEn: 'China', nameZh: '中国', ipv4: 768 + 192 + 65_536 + 8, ipv6: (2n ** 96n).toString() },
      { code: 'HK', nameEn: 'Hong Kong', nameZh: '中国香港特别行政区', ipv4: 4, ipv6: '0' },
      { code: 'DE', nameEn: 'Germany', nameZh: '德国', ipv4: 0, ipv6: (2n ** 124n + 2n ** 112n).toString() },
    ]);
    expect(statistics.total).toEqual({
      ipv4: 16_777_472 + 66_504 + 4,
      ipv6: (2n ** 96n + 2n ** 124n + 2n ** 112n).toString(),
    });
    expect(statistics.unlocated).toEqual({ ipv4: 16_777_216, ipv6: '0' });
  });

  it('counts Chinese divisions: CN by qqwry province, HK/MO/TW by country code, the rest unattributed', () => {
    const byCode = Object.fromEntries(statistics.china.provinces.map((province) => [province.code, province]));
    expect(statistics.china.provinces).toHaveLength(34);
    expect(byCode['44']).toEqual({ code: '44', ipv4: 768, ipv6: (2n ** 96n).toString(), idcOrganizations: 1 });
    expect(byCode['11']).toEqual({ code: '11', ipv4: 192 + 8, ipv6: '0', idcOrganizations: 1 });
    expect(byCode['81']).toEqual({ code: '81', ipv4: 4, ipv6: '0', idcOrganizations: 1 });
    expect(byCode['82']).toEqual({ code: '82', ipv4: 0, ipv6: '0', idcOrganizations: 0 });
    expect(statistics.china.unattributed).toEqual({ ipv4: 65_536, ipv6: '0' });
    expect(statistics.china.total).toEqual({ ipv4: 66_504 + 4, ipv6: (2n ** 96n).toString() });
    const sum = statistics.china.provinces.reduce((total, province) => total + province.ipv4, 0);
    expect(sum + statistics.china.unattributed.ipv4).toBe(statistics.china.total.ipv4);
  });

  it('lists hosting organisations of the Chinese divisions with ASNs, joined CIDR blocks, names and provinces', () => {
    expect(statistics.idc).toEqual([
      {
        name: '阿里云',
        nameZh: '阿里云',
        organization: 'Hangzhou Alibaba Advertising Co.,Ltd.',
        asns: [37963],
        prefixes: 3,
        ipv4: 768,
        ipv6: (2n ** 96n).toString(),
        provinces: [{ code: '44', ipv4: 768, ipv6: (2n ** 96n).toString() }],
      },
      {
        // 腾讯云 names 4 of 196 addresses: not enough to name the organisation.
        name: 'Shenzhen Tencent Computer Systems Company Limited',
        nameZh: null,
        organization: 'Shenzhen Tencent Computer Systems Company Limited',
        asns: [45090, 132203],
        prefixes: 3,
        ipv4: 196,
        ipv6: '0',
        provinces: [
          { code: '11', ipv4: 192, ipv6: '0' },
          { code: '81', ipv4: 4, ipv6: '0' },
        ],
      },
    ]);
  });

  it('writes what parseStatistics reads back, and parseStatistics refuses broken files', () => {
    const text = JSON.stringify(statistics);
    expect(parseStatistics(text)).toEqual(statistics);
    expect(() => parseStatistics('{')).toThrow(/not JSON/);
    expect(() => parseStatistics(JSON.stringify({ ...statistics, format: 2 }))).toThrow(/format 2, expected 1/);
    expect(() => parseStatistics(JSON.stringify({ ...statistics, total: { ipv4: 1, ipv6: 1.5 } }))).toThrow(/total/);
    const badIdc = { ...statistics, idc: [{ ...statistics.idc[0], asns: ['x'] }] };
    expect(() => parseStatistics(JSON.stringify(badIdc))).toThrow(/idc\[0\]/);
  });
});
