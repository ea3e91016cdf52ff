import { waitFor } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIBABA } from '../../lookup-engine/test/fixtures/statistics-dataset.js';
import { BffCnHarness } from './fixtures/bff-cn-harness.js';

/**
 * The statistics calls against real neighbours: the lookup engine in-process serving the
 * harness's dataset folders (the statistics fixture's numbers on the served version
 * 2026.11.01-test: 47.96.0.0/15 广东 Alibaba hosting, 36.0.0.0/12 + 240e::/20 北京, 43.128.0.0/24
 * 香港 Tencent hosting, 1.0.0.0/24 US; the previous version 2026.10.01-stats has 47.96.0.0/16), and
 * stats in-process counting the usage events that face A's own lookups put on usage.lookup.v1.
 */

const GUANGDONG_NOW = 131_072;
const CN_NOW = 1_048_576 + GUANGDONG_NOW;
const CN_BEFORE = 1_048_576 + 65_536;
/** 240e::/20 = 2^108 addresses: beyond a JSON number's exact range. */
const BEIJING_IPV6 = (2n ** 108n).toString();

interface Row {
  [key: string]: unknown;
}
interface Listed {
  list: Row[];
  [key: string]: unknown;
}

describe('bff-cn statistics calls', () => {
  const h = new BffCnHarness({}, { stats: true });
  const data = async <T = Row>(path: string, form: Record<string, string> = {}) => {
    const answer = await h.call(path, { form });
    expect(answer.body.code, answer.text).toBe(200);
    return answer.body.data as T;
  };
  const refused = async (path: string, form: Record<string, string>) => {
    const answer = await h.call(path, { form });
    expect([answer.status, answer.body.code, answer.body.data], answer.text).toEqual([200, 400, null]);
    return answer.body.msg;
  };

  beforeAll(async () => {
    await h.start();
    // Face A lookups: 114.114.114.114 is CN 江苏 in the synthetic dataset, 8.8.8.8 US.
    for (const ip of ['114.114.114.114', '114.114.114.115', '8.8.8.8']) {
      expect((await h.call('/v1/ip_search_zone', { form: { ip } })).body.code).toBe(200);
    }
  });
  afterAll(() => h.stop());

  it('global_ip_total: the served version with its totals, IPv6 as exact decimal text', async () => {
    const total = await data('/v1/global_ip_total');
    expect(total).toMatchObject({
      version: '2026.11.01-test',
      built_at: '2026-11-02T00:00:00.000Z',
      addresses: { ipv4: CN_NOW + 256 + 256, ipv6: BEIJING_IPV6, ipv6_slash32: 4096 },
      china: { ipv4: CN_NOW + 256, ipv6: BEIJING_IPV6 },
      countries: 3,
      idc_organizations: 2,
    });
  });

  it('global_country_count: largest first, Chinese names, a country filter and pages', async () => {
    const all = await data<Listed>('/v1/global_country_count');
    expect(all.list.map((row) => [row['country_code'], row['name'], row['ipv4']])).toEqual([
      ['CN', '中国', CN_NOW],
      ['HK', expect.stringContaining('香港'), 256],
      ['US', '美国', 256],
    ]);
    expect(all).toMatchObject({ page: 1, page_size: 50, total: 3 });
    expect((await data<Listed>('/v1/global_country_count', { page: '2', page_size: '1' })).list).toEqual([
      expect.objectContaining({ country_code: 'HK' }),
    ]);
    const us = await data<Listed>('/v1/global_country_count', { country: 'us' });
    expect(us.list).toEqual([expect.objectContaining({ country_code: 'US', name_en: 'United States', ipv4: 256 })]);
    expect(await refused('/v1/global_country_count', { country: 'china' })).toBe('请输入正确的国家代码（两位字母，如 CN）');
    expect(await refused('/v1/global_country_count', { page_size: '301' })).toBe('每页条数应为 1 到 300 之间的整数');
  });

  it('global_country_update: the change of each country against the previous version', async () => {
    const update = await data<Listed>('/v1/global_country_update');
    expect(update['previous']).toEqual({ version: '2026.10.01-stats', built_at: '2026-11-01T00:00:00.000Z' });
    expect(update['addresses']).toMatchObject({ ipv4_change: 65_536, ipv6_change: '0' });
    expect(update.list[0]).toMatchObject({ country_code: 'CN', ipv4: CN_NOW, ipv4_change: CN_NOW - CN_BEFORE });
    expect(update.list.slice(1).map((row) => row['ipv4_change'])).toEqual([0, 0]);
  });

  it('china_province_count and china_province_update: 34 divisions, one by any of its names', async () => {
    const all = await data<Listed>('/v1/china_province_count');
    expect(all.list).toHaveLength(34);
    expect(all.list.find((row) => row['code'] === '11')).toMatchObject({ name: '北京市', ipv6: BEIJING_IPV6 });
    for (const province of ['广东', '广东省', '44', 'Guangdong']) {
      expect((await data<Listed>('/v1/china_province_count', { province })).list).toEqual([
        expect.objectContaining({ code: '44', name: '广东省', short_name: '广东', ipv4: GUANGDONG_NOW, idc_organizations: 1 }),
      ]);
    }
    expect(await refused('/v1/china_province_count', { province: '火星' })).toMatch(/请输入正确的省份/);
    const update = await data<Listed>('/v1/china_province_update');
    expect(update.list[0]).toMatchObject({ code: '44', ipv4_change: 65_536 });
    expect(update['previous']).toMatchObject({ version: '2026.10.01-stats' });
  });

  it('get_areas: the countries and divisions for the filters', async () => {
    const areas = await data<{ countries: Row[]; provinces: Row[] }>('/v1/get_areas');
    expect(areas.countries.map((row) => row['country_code'])).toEqual(['CN', 'HK', 'US']);
    expect(areas.provinces).toHaveLength(34);
    expect(areas.provinces).toContainEqual({ code: '81', name: '香港特别行政区', short_name: '香港', name_en: 'Hong Kong' });
  });

  it('idc_list and idc_prov_list: hosting organisations, by division', async () => {
    const all = await data<Listed>('/v1/idc_list');
    expect(all).toMatchObject({ total: 2, page: 1, page_size: 20, province: null });
    const guangdong = await data<Listed>('/v1/idc_list', { province: '广东' });
    expect(guangdong).toMatchObject({ total: 1, province: { code: '44' } });
    expect(guangdong.list).toEqual([
      expect.objectContaining({ organization: ALIBABA, name: '阿里云', asns: [37963], ipv4: GUANGDONG_NOW }),
    ]);
    expect((await data<Listed>('/v1/idc_list', { page: '2', page_size: '1' })).list).toHaveLength(1);
    expect(await refused('/v1/idc_list', { province: '火星' })).toMatch(/请输入正确的省份/);
    const provinces = await data<Listed>('/v1/idc_prov_list');
    expect(provinces.list.map((row) => [row['code'], row['idc_organizations']]).sort()).toEqual([
      ['44', 1],
      ['81', 1],
    ]);
  });

  it('global_country_trend, china_province_trend, search_count: face A lookups next to the dataset history', async () => {
    const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
    const dayBefore = utcDay(Date.now());
    const trend = await waitFor(
      async () => {
        const answer = await data<{ lookups: { total: { requests: number } } }>('/v1/global_country_trend', {
          country: 'CN',
          days: '7',
        });
        return answer.lookups.total.requests >= 2 ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300, what: 'stats to count the CN lookups' },
    );
    expect(trend).toMatchObject({ country: { country_code: 'CN', name: '中国' } });
    const { lookups, dataset } = trend as unknown as { lookups: { days: Row[] }; dataset: Row[] };
    // The last of 7 consecutive UTC days is bff-cn's "today" when it answered (between the two
    // readings of the clock around the calls, which differ when midnight passed meanwhile).
    const last = String(lookups.days.at(-1)?.['day']);
    expect([dayBefore, utcDay(Date.now())]).toContain(last);
    expect(lookups.days.map((row) => row['day'])).toEqual(
      Array.from({ length: 7 }, (_, i) => utcDay(Date.parse(`${last}T00:00:00Z`) - (6 - i) * 86_400_000)),
    );
    expect(dataset.map((row) => [row['version'], row['ipv4']])).toEqual([
      ['2026.10.01-stats', CN_BEFORE],
      ['2026.11.01-test', CN_NOW],
    ]);

    const everyCountry = await data<{ lookups: { total: { counts: Row[] } }; country: null }>('/v1/global_country_trend');
    expect(everyCountry.country).toBeNull();
    expect(everyCountry.lookups.total.counts.map((row) => row['key'])).toEqual(expect.arrayContaining(['CN', 'US']));

    const jiangsu = await data<{ lookups: { total: { requests: number } }; dataset: Row[]; province: Row }>(
      '/v1/china_province_trend',
      {
        province: '江苏',
      },
    );
    expect(jiangsu.province).toEqual({ code: '32', name: '江苏省', short_name: '江苏' });
    expect(jiangsu.lookups.total.requests).toBeGreaterThanOrEqual(2);
    expect(jiangsu.dataset.map((row) => row['ipv4'])).toEqual([0, 0]);

    // The wait above saw the two CN lookups; the third may still be on its way to stats. Two days:
    // the lookups of beforeAll may fall on the day before, when midnight passed since.
    for (const name of ['search_count', 'search_count_new']) {
      await waitFor(
        async () => {
          const counts = await data<{ total: { counts: Row[] } }>(`/v1/${name}`, { days: '2' });
          const zone = counts.total.counts.find((row) => row['key'] === 'ip_search_zone');
          return Number(zone?.['requests'] ?? 0) >= 3;
        },
        { timeoutMs: 30_000, intervalMs: 300, what: `${name} to count the three ip_search_zone lookups` },
      );
    }
    expect(await refused('/v1/search_count', { days: '0' })).toBe('天数应为 1 到 90 之间的整数');
  });
});
