import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../build/build-dataset.js';
import { silentReporter } from '../build/progress.js';
import { syntheticInputs } from '../testing/synthetic-build.js';
import { writeIpdb, writeMmdb } from '../testing/synthetic-sources.js';
import { parseStatistics, STATISTICS_FILE } from './statistics-file.js';

const geo = (country: string) => ({ country_code: country, state1: '', state2: '', city: '', postcode: '', timezone: '' });
const ALIBABA = 'Hangzhou Alibaba Advertising Co.,Ltd.';
const TENCENT = 'Shenzhen Tencent Computer Systems Company Limited';

/**
 * The synthetic inputs with Chinese data: GeoLite2 places 36.0.0.0/8 and 47.96.0.0/16 in CN,
 * 43.128.0.0/16 in HK and 240e::/20 in CN; the ASN CSVs give 47.96.0.0/16 to Alibaba (AS37963)
 * and 43.128.0.0/16 to Tencent (AS45090), both hosting ASNs of data/hosting-asns.csv; qqwry
 * names provinces and ISPs.
 */
function chineseInputs() {
  const synthetic = syntheticInputs();
  const { paths } = synthetic.inputs;
  writeMmdb(paths.geoliteV4, 4, [
    { network: '5.9.0.0/16', record: geo('DE') },
    { network: '36.0.0.0/8', record: geo('CN') },
    { network: '43.128.0.0/16', record: geo('HK') },
    { network: '47.96.0.0/16', record: geo('CN') },
  ]);
  writeMmdb(paths.geoliteV6, 6, [
    { network: '2a01:4f8::/32', record: geo('DE') },
    { network: '240e::/20', record: geo('CN') },
  ]);
  writeFileSync(
    paths.asnV4,
    [
      `${43 * 2 ** 24 + 128 * 2 ** 16},${43 * 2 ** 24 + 129 * 2 ** 16 - 1},45090,${TENCENT}`,
      `${47 * 2 ** 24 + 96 * 2 ** 16},${47 * 2 ** 24 + 97 * 2 ** 16 - 1},37963,"${ALIBABA}"`,
      '',
    ].join('\n'),
  );
  writeFileSync(paths.asnV6, '240e::,240e:fff:ffff:ffff:ffff:ffff:ffff:ffff,4134,Chinanet\n');
  const cn = (province: string, isp: string) => ['中国', province, '', '', '', isp, 'CN', 'AP'];
  writeIpdb(paths.qqwry, [
    { network: '36.0.0.0/9', fields: cn('北京', '电信') },
    { network: '43.128.0.0/16', fields: cn('香港', '腾讯云') },
    { network: '47.96.0.0/17', fields: cn('浙江', '阿里云') },
    { network: '47.96.128.0/18', fields: cn('广东', '阿里云') },
    { network: '47.96.192.0/18', fields: cn('广东深圳市', '阿里云BGP数据中心') },
    { network: '240e::/20', fields: cn('广东', '电信') },
  ]);
  return synthetic;
}

describe('statistics.json of a synthetic build', () => {
  const { folder, inputs, sources } = chineseInputs();
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const built = buildDataset({
    inputs,
    sources,
    datasetsDir: join(folder, 'out'),
    force: false,
    sourceDateEpoch: null,
    reporter: silentReporter,
  });
  const statistics = parseStatistics(readFileSync(join(built.folder, STATISTICS_FILE), 'utf8'));

  it('is listed in the manifest and names the version', () => {
    const listed = built.manifest.files.find((file) => file.name === STATISTICS_FILE);
    expect(listed?.size).toBe(readFileSync(join(built.folder, STATISTICS_FILE)).length);
    expect(statistics.datasetVersion).toBe(built.version);
    expect(statistics.builtAt).toBe(built.manifest.builtAt);
  });

  it('counts addresses per country from the merged ranges', () => {
    expect(statistics.countries).toEqual([
      { code: 'CN', nameEn: 'China', nameZh: '中国', ipv4: 2 ** 24 + 2 ** 16, ipv6: (2n ** 108n).toString() },
      { code: 'DE', nameEn: 'Germany', nameZh: '德国', ipv4: 2 ** 16, ipv6: (2n ** 96n).toString() },
      { code: 'HK', nameEn: 'Hong Kong', nameZh: '中国香港特别行政区', ipv4: 2 ** 16, ipv6: '0' },
    ]);
    expect(statistics.total).toEqual({ ipv4: 2 ** 24 + 3 * 2 ** 16, ipv6: (2n ** 108n + 2n ** 96n).toString() });
  });

  it('counts Chinese divisions from qqwry province names, HK by its country code', () => {
    const nonZero = statistics.china.provinces.filter((province) => province.ipv4 > 0 || province.ipv6 !== '0');
    expect(nonZero).toEqual([
      { code: '11', ipv4: 2 ** 23, ipv6: '0', idcOrganizations: 0 },
      { code: '33', ipv4: 2 ** 15, ipv6: '0', idcOrganizations: 1 },
      { code: '44', ipv4: 2 ** 15, ipv6: (2n ** 108n).toString(), idcOrganizations: 1 },
      { code: '81', ipv4: 2 ** 16, ipv6: '0', idcOrganizations: 1 },
    ]);
    expect(statistics.china.unattributed).toEqual({ ipv4: 2 ** 23, ipv6: '0' });
    expect(statistics.china.total).toEqual({ ipv4: 2 ** 24 + 2 * 2 ** 16, ipv6: (2n ** 108n).toString() });
  });

  it('lists the Chinese hosting organisations (equal counts: by name)', () => {
    expect(statistics.idc).toEqual([
      {
        name: '腾讯云',
        nameZh: '腾讯云',
        organization: TENCENT,
        asns: [45090],
        prefixes: 1,
        ipv4: 2 ** 16,
        ipv6: '0',
        provinces: [{ code: '81', ipv4: 2 ** 16, ipv6: '0' }],
      },
      {
        name: '阿里云',
        nameZh: '阿里云',
        organization: ALIBABA,
        asns: [37963],
        // One /16, although qqwry splits it in three.
        prefixes: 1,
        ipv4: 2 ** 16,
        ipv6: '0',
        provinces: [
          { code: '33', ipv4: 2 ** 15, ipv6: '0' },
          { code: '44', ipv4: 2 ** 15, ipv6: '0' },
        ],
      },
    ]);
  });
});
