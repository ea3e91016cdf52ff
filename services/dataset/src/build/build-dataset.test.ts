import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseIpv4, parseIpv6 } from '@ipdata/common/ip';
import { afterAll, describe, expect, it } from 'vitest';
import { DATASET_FILE, decodeRecord, FLAG, NONE, openDataset, type DatasetView } from '../format/index.js';
import { readCurrent } from '../output/version-folder.js';
import { syntheticInputs } from '../testing/synthetic-build.js';
import { buildDataset, type BuildOptions } from './build-dataset.js';
import { silentReporter } from './progress.js';

function options(overrides: Partial<BuildOptions> & Pick<BuildOptions, 'inputs' | 'sources' | 'datasetsDir'>): BuildOptions {
  return { force: false, sourceDateEpoch: null, reporter: silentReporter, ...overrides };
}

function lookupV4(view: DatasetView, text: string) {
  const address = parseIpv4(text);
  let index = 0;
  while (index + 1 < view.ipv4Starts.length && (view.ipv4Starts[index + 1] as number) <= address) index++;
  const record = view.ipv4Records[index] as number;
  return record === NONE ? null : decodeRecord(view, record);
}

function filesOf(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(join(entry.parentPath, entry.name).slice(folder.length), readFileSync(join(entry.parentPath, entry.name)));
  }
  return files;
}

describe('buildDataset on small synthetic sources', () => {
  const { folder, inputs, sources } = syntheticInputs();
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('gives byte-identical files for the same inputs', () => {
    const first = buildDataset(options({ inputs, sources, datasetsDir: join(folder, 'out-a') }));
    const second = buildDataset(options({ inputs, sources, datasetsDir: join(folder, 'out-b') }));
    expect(second.version).toBe(first.version);
    expect(first.version).toMatch(/^2026\.09\.16-[0-9a-f]{8}$/);
    const a = filesOf(first.folder);
    const b = filesOf(second.folder);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.size).toBeGreaterThanOrEqual(14);
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name) as Buffer), name).toBe(true);
    expect(readCurrent(join(folder, 'out-a'))).toBe(first.version);
  });

  it('merges the sources into records carrying every field and rule', () => {
    const result = buildDataset(options({ inputs, sources, datasetsDir: join(folder, 'out-c'), sourceDateEpoch: 1_700_000_000 }));
    const view = openDataset(readFileSync(join(result.folder, DATASET_FILE)));
    expect(view.header.builtAt).toBe('2023-11-14T22:13:20.000Z');
    expect(view.ipv4Starts[0]).toBe(0);
    expect(view.ipv4Records[0]).toBe(NONE);

    const sydney = lookupV4(view, '1.0.0.77');
    expect(sydney?.fields).toMatchObject({
      country_code: 'AU',
      country_name: 'Australia',
      country_capital: 'Canberra',
      continent_code: 'OC',
      city_name: 'Sydney',
      calling_code: '+61',
      country_flag: '🇦🇺',
      currency_code: 'AUD',
      currency_name: 'Australian Dollar',
      currency_symbol: '$',
      time_zone: 'Australia/Sydney',
      asn_name: 'Cloudflare, Inc.',
      organization: 'Cloudflare, Inc.',
      usage_type: 'DCH',
      isp: null,
      asn_domain: null,
      weather_station_code: null,
      zh_country: '澳大利亚',
      zh_city: '悉尼',
      zh_isp: 'Cloudflare',
      privacy_rule: 'hosting-asn',
    });
    expect(sydney?.asn).toBe(13335);
    expect(sydney?.latitude).toBe(Math.fround(-33.8688));
    expect(sydney?.flags).toBe(FLAG.isEuKnown | FLAG.isDataCenter | FLAG.isHosting);

    // Same location, other ASN (not hosting) → another record; qqwry still covers it.
    const gtelecom = lookupV4(view, '1.0.1.1');
    expect(gtelecom?.fields).toMatchObject({
      city_name: 'Sydney',
      asn_name: 'Gtelecom Pty Ltd',
      usage_type: null,
      privacy_rule: null,
      zh_city: '悉尼',
    });

    const tor = lookupV4(view, '5.9.10.2');
    expect(tor?.flags).toBe(FLAG.isEuKnown | FLAG.isEu | FLAG.isDataCenter | FLAG.isHosting | FLAG.isTor);
    expect(tor?.fields.privacy_rule).toBe('hosting-asn,tor:tor-exits.csv');
    expect(lookupV4(view, '5.9.10.4')?.fields.privacy_rule).toBe('hosting-asn');

    // qqwry covers only half of 36.0.0.0/8: the other half has GeoLite2 data and no Chinese names.
    expect(lookupV4(view, '36.1.1.1')?.fields).toMatchObject({ country_code: 'CN', zh_province: '北京', zh_isp: '电信' });
    expect(lookupV4(view, '36.200.1.1')?.fields).toMatchObject({ country_code: 'CN', zh_province: null });
    expect(lookupV4(view, '8.8.8.8')).toBeNull();

    const address = new Uint32Array(4);
    parseIpv6('2a01:4f8::1', address);
    const v6Index = [...view.ipv6Records.keys()]
      .filter((i) => (view.ipv6Starts[i * 4] as number) <= (address[0] as number))
      .pop() as number;
    expect(decodeRecord(view, view.ipv6Records[v6Index] as number).fields).toMatchObject({
      country_code: 'DE',
      zh_country: '德国',
      usage_type: 'DCH',
    });

    // Records are deduplicated: the two Sydney /24s with Cloudflare resolve to one record.
    const records = [...view.ipv4Records].filter((r) => r !== NONE);
    expect(new Set(records).size).toBe(view.header.counts.records - 1); // the IPv6 record is the extra one
    expect(result.manifest.privacyRules).toEqual([
      { rule: 'hosting-asn', ipv4Ranges: 4, ipv6Ranges: 1 },
      { rule: 'tor:tor-exits.csv', ipv4Ranges: 1, ipv6Ranges: 0 },
    ]);

    const asn = view.asnTable;
    expect([...asn.subarray(0, 1)]).toEqual([13335]);
    expect(result.manifest.counts.asns).toBe(3);
  });

  it('lists every file in the manifest with its size, hash and rows, and skips a complete version', () => {
    const datasetsDir = join(folder, 'out-d');
    const built = buildDataset(options({ inputs, sources, datasetsDir }));
    const geolocation = built.manifest.files.find((file) => file.name === 'geolocation.csv');
    const lines = readFileSync(join(built.folder, 'geolocation.csv'), 'utf8').trimEnd().split('\n');
    expect(geolocation?.rows).toBe(lines.length - 1);
    expect(lines[0]).toBe(
      'start_ip,end_ip,country_code,country_name,region_name,city_name,zip_code,latitude,longitude,time_zone,continent_code,is_eu',
    );
    expect(lines[1]).toBe('1.0.0.0,1.0.1.255,AU,Australia,Sydney State,Sydney,,-33.8688,151.2093,Australia/Sydney,OC,false');
    for (const file of built.manifest.files) expect(readFileSync(join(built.folder, file.name)).length).toBe(file.size);
    expect(buildDataset(options({ inputs, sources, datasetsDir })).skipped).toBe(true);
    expect(buildDataset(options({ inputs, sources, datasetsDir, force: true })).skipped).toBe(false);
  });

  it('gives another version when a rule file changes', () => {
    const before = buildDataset(options({ inputs, sources, datasetsDir: join(folder, 'out-e') }));
    appendFileSync(inputs.hostingAsnsFile, '38803,Gtelecom (test),https://example.test/\n');
    const after = buildDataset(options({ inputs, sources, datasetsDir: join(folder, 'out-e') }));
    expect(after.version).not.toBe(before.version);
    expect(after.manifest.privacyRules[0]).toMatchObject({ rule: 'hosting-asn', ipv4Ranges: 5 });
  });

  it('stops at a bad source file with its path and leaves no version folder behind', () => {
    const datasetsDir = join(folder, 'out-f');
    const broken = join(folder, 'broken.mmdb');
    writeFileSync(broken, Buffer.alloc(4096, 7));
    const brokenInputs = { ...inputs, paths: { ...inputs.paths, geoliteV4: broken } };
    const brokenSources = sources.map((source) =>
      source.name === 'geolite2-city' ? { ...source, files: [broken, inputs.paths.geoliteV6] } : source,
    );
    expect(() => buildDataset(options({ inputs: brokenInputs, sources: brokenSources, datasetsDir }))).toThrow(
      `${broken}: not a MaxMind DB file (metadata marker not found)`,
    );
    expect(existsSync(datasetsDir) ? readdirSync(datasetsDir) : []).toEqual([]);
  });
});
