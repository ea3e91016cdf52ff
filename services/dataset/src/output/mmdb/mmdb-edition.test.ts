import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Reader } from 'maxmind';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../../build/build-dataset.js';
import { silentReporter } from '../../build/progress.js';
import { syntheticInputs } from '../../testing/synthetic-build.js';
import { MMDB_FILE } from './mmdb-edition.js';
import { verifyMmdb } from './mmdb-verify.js';

describe('the MMDB edition of a synthetic build', () => {
  const { folder, inputs, sources } = syntheticInputs();
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const built = buildDataset({
    inputs,
    sources,
    datasetsDir: join(folder, 'out'),
    force: false,
    sourceDateEpoch: null,
    reporter: silentReporter,
  });
  const bytes = readFileSync(join(built.folder, MMDB_FILE));
  const reader = new Reader(bytes);

  it('is listed in the manifest with size, sha256 and its networks as the row count', () => {
    const entry = built.manifest.files.find((file) => file.name === MMDB_FILE);
    const check = verifyMmdb(bytes);
    expect(entry?.size).toBe(bytes.length);
    expect(entry?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.rows).toBe(check.dataRecords);
    expect(check).toMatchObject({ databaseType: 'ipdata-City', ipVersion: 6, languages: ['en', 'zh-CN'] });
    expect(check.buildEpoch).toBe(Date.parse(built.manifest.builtAt) / 1000);
    expect(check.description.en).toContain(built.version);
  });

  it('maps every field of a record to its GeoIP2-like or own key, omitting absent ones', () => {
    // Sydney, Cloudflare (a hosting ASN), qqwry names: see build-dataset.test.ts for the record.
    expect(reader.getWithPrefixLength('1.0.0.1')).toEqual([
      {
        continent: { code: 'OC' },
        country: { iso_code: 'AU', names: { en: 'Australia', 'zh-CN': '澳大利亚' }, is_in_european_union: false },
        subdivisions: [{ names: { en: 'Sydney State' } }],
        city: { names: { en: 'Sydney' } },
        location: { latitude: -33.8688, longitude: 151.2093, time_zone: 'Australia/Sydney' },
        autonomous_system_number: 13335,
        autonomous_system_organization: 'Cloudflare, Inc.',
        traits: {
          autonomous_system_number: 13335,
          autonomous_system_organization: 'Cloudflare, Inc.',
          is_hosting_provider: true,
        },
        privacy: {
          is_vpn: false,
          is_tor: false,
          is_data_center: true,
          is_proxy: false,
          is_relay: false,
          is_hosting: true,
          rule: 'hosting-asn',
        },
        usage_type: 'DCH',
        zh: { country: '澳大利亚', province: '新南威尔士州', city: '悉尼', isp: 'Cloudflare' },
      },
      24,
    ]);
    // A Tor exit in Germany (EU); no postal code, no qqwry data there: those keys are absent.
    const tor = reader.get('5.9.10.2') as Record<string, unknown>;
    expect(tor).toMatchObject({
      country: { iso_code: 'DE', names: { en: 'Germany', 'zh-CN': '德国' }, is_in_european_union: true },
      traits: { autonomous_system_number: 24940, is_hosting_provider: true, is_tor_exit_node: true },
      privacy: { is_tor: true, is_hosting: true, rule: 'hosting-asn,tor:tor-exits.csv' },
    });
    expect(Object.keys(tor)).not.toContain('postal');
    expect(Object.keys(tor)).not.toContain('zh');
    // IPv6 data and the IPv4 aliases.
    expect(reader.get('2a01:4f8::1')).toMatchObject({ country: { iso_code: 'DE' }, autonomous_system_number: 24940 });
    expect(reader.get('::ffff:5.9.10.2')).toEqual(tor);
    expect(reader.get('2002:509:a02::1')).toEqual(tor);
    expect(reader.get('8.8.8.8')).toBeNull();
  });
});
