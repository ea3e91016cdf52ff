import { InvalidArgumentError } from '@ipdata/common';
import { computeStatistics } from '@ipdata/dataset/statistics';
import { describe, expect, it } from 'vitest';
import { ALIBABA, statisticsContent, TENCENT } from '../../test/fixtures/statistics-dataset.js';
import { ServedStatistics } from './served-statistics.js';
import { historyPage, idcPage } from './statistics-queries.js';

const served = new ServedStatistics(computeStatistics(statisticsContent('v1')));
const wider = new ServedStatistics(computeStatistics(statisticsContent('v2', true)));
const SLASH32 = 2n ** 96n;

describe('ServedStatistics', () => {
  it('answers totals, countries with names and all 34 divisions, IPv6 as exact text and /32 blocks', () => {
    const { response } = served;
    expect(response.version).toBe('v1');
    expect(response.total).toEqual({ ipv4: 256 + 2 ** 20 + 256 + 2 ** 16, ipv6: (2n ** 108n).toString(), ipv6Slash32: 4096 });
    expect(response.countries.map((c) => [c.countryCode, c.nameZh, c.addresses?.ipv4])).toEqual([
      ['CN', '中国', 2 ** 20 + 2 ** 16],
      // Equal counts: by code.
      ['HK', '中国香港特别行政区', 256],
      ['US', '美国', 256],
    ]);
    expect(response.provinces).toHaveLength(34);
    expect(response.provinces.find((p) => p.code === '44')).toEqual({
      code: '44',
      name: '广东省',
      shortName: '广东',
      nameEn: 'Guangdong',
      addresses: { ipv4: 2 ** 16, ipv6: '0', ipv6Slash32: 0 },
      idcOrganizations: 1,
    });
    expect(response.provinces.find((p) => p.code === '11')?.addresses).toEqual({
      ipv4: 2 ** 20,
      ipv6: (SLASH32 * 4096n).toString(),
      ipv6Slash32: 4096,
    });
    expect(response.chinaTotal?.ipv4).toBe(2 ** 20 + 2 ** 16 + 256);
    expect(response.idcOrganizations).toBe(2);
  });

  it('pages IDC organisations, filtered by any name of a division', () => {
    const all = idcPage(served, { province: '', page: 0, pageSize: 0 });
    expect(all.organizations.map((o) => [o.name, o.organization, o.asns, o.prefixCount])).toEqual([
      ['阿里云', ALIBABA, [37963], 1],
      ['腾讯云', TENCENT, [132203], 1],
    ]);
    expect(all).toMatchObject({ page: 0, pageSize: 100, total: 2, province: undefined });
    for (const name of ['44', '广东', '广东省', 'guangdong']) {
      const page = idcPage(served, { province: name, page: 0, pageSize: 10 });
      expect(page.organizations.map((o) => o.name)).toEqual(['阿里云']);
      expect(page.province?.name).toBe('广东省');
    }
    expect(idcPage(served, { province: 'hk', page: 0, pageSize: 10 }).province?.name).toBe('香港特别行政区');
    expect(idcPage(served, { province: '香港', page: 0, pageSize: 10 }).organizations[0]?.provinces).toEqual([
      { code: '81', shortName: '香港', addresses: { ipv4: 256, ipv6: '0', ipv6Slash32: 0 } },
    ]);
    expect(idcPage(served, { province: '西藏', page: 0, pageSize: 10 })).toMatchObject({ organizations: [], total: 0 });
    expect(idcPage(served, { province: '', page: 1, pageSize: 1 }).organizations.map((o) => o.name)).toEqual(['腾讯云']);
    expect(() => idcPage(served, { province: '加利福尼亚', page: 0, pageSize: 10 })).toThrow(InvalidArgumentError);
    expect(() => idcPage(served, { province: '', page: 0, pageSize: 1001 })).toThrow('page_size must be at most 1000');
  });

  it('gives the history with only the countries and divisions asked for', () => {
    const history = historyPage([served, wider], { limit: 0, countryCodes: ['cn'], provinces: ['广东'] });
    expect(
      history.versions.map((v) => [
        v.version,
        v.countries.map((c) => c.addresses?.ipv4),
        v.provinces.map((p) => p.addresses?.ipv4),
      ]),
    ).toEqual([
      ['v1', [2 ** 20 + 2 ** 16], [2 ** 16]],
      ['v2', [2 ** 20 + 2 ** 17], [2 ** 17]],
    ]);
    expect(historyPage([served, wider], { limit: 1, countryCodes: [], provinces: [] }).versions.map((v) => v.version)).toEqual([
      'v2',
    ]);
    expect(historyPage([served], { limit: 0, countryCodes: [], provinces: [] }).versions[0]?.provinces).toHaveLength(34);
    expect(() => historyPage([served], { limit: 367, countryCodes: [], provinces: [] })).toThrow('limit must be at most 366');
    expect(() => historyPage([served], { limit: 0, countryCodes: ['CHN'], provinces: [] })).toThrow('not an ISO 3166-1');
    expect(() => historyPage([served], { limit: 0, countryCodes: [], provinces: ['xx'] })).toThrow('unknown province: xx');
  });
});
