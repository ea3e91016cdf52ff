import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Reader } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { DATA_DIR, loadDatasetConfig } from '../config.js';
import { DATASET_FILE, decodeRecord, FLAG, NONE, openDataset } from '../format/index.js';
import { formatAddress } from '../ranges/address.js';
import type { Partition } from '../ranges/partition.js';
import { readAsnCsv } from '../sources/asn-csv-source.js';
import { openIpdb } from '../sources/ipdb-source.js';
import { loadHostingAsns } from '../sources/privacy-rules.js';
import { random, rangeIndex, sampleAddresses } from '../testing/sampling.js';
import { defaultInputs } from './default-inputs.js';

/**
 * Golden check of the full build (`make dataset`, which `make test` runs first) against the
 * sources themselves, including the Chinese names from qqwry and the hosting rule.
 */
describe('the built dataset against the real sources', () => {
  it('answers 2,000 IPv4 and 2,000 IPv6 addresses exactly as GeoLite2, the ASN CSVs and qqwry do', { timeout: 120_000 }, () => {
    const { inputs } = defaultInputs(DATA_DIR, join(DATA_DIR, 'privacy-lists'));
    const { DATASETS_DIR } = loadDatasetConfig();
    const pointer = join(DATASETS_DIR, 'current');
    if (!existsSync(pointer)) throw new Error(`no dataset under ${DATASETS_DIR}: run \`make dataset\` first`);
    const view = openDataset(readFileSync(join(DATASETS_DIR, readFileSync(pointer, 'utf8').trim(), DATASET_FILE)));
    const hosting = loadHostingAsns(inputs.hostingAsnsFile);
    const qqwry = openIpdb(inputs.paths.qqwry);
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

    for (const family of [4, 6] as const) {
      const words = family === 4 ? 1 : 4;
      const geo = new Reader<Record<string, unknown>>(
        readFileSync(family === 4 ? inputs.paths.geoliteV4 : inputs.paths.geoliteV6),
      );
      const asnRows: number[] = [];
      const asns = readAsnCsv(family === 4 ? inputs.paths.asnV4 : inputs.paths.asnV6, family, (asn) => asnRows.push(asn) - 1);
      const table: Partition = {
        words,
        starts: family === 4 ? view.ipv4Starts : view.ipv6Starts,
        values: family === 4 ? view.ipv4Records : view.ipv6Records,
      };
      for (const address of sampleAddresses(table, random(family * 7))) {
        const ip = formatAddress(address, 0, words);
        const index = table.values[rangeIndex(table, address)] as number;
        const record = index === NONE ? null : decodeRecord(view, index);
        const location = geo.get(ip);
        const asnValue = asns.values[rangeIndex(asns, address)] as number;
        const asn = asnValue === NONE ? null : (asnRows[asnValue] as number);
        const pointer =
          family === 6 && address[0] === 0 && address[1] === 0 && address[2] === 0xffff ? null : qqwry.lookup(family, address);
        const chinese = pointer === null ? null : qqwry.record(pointer);
        const expected = {
          ip,
          country_code: text(location?.['country_code']),
          region_name: text(location?.['state1']),
          city_name: text(location?.['city']),
          zip_code: text(location?.['postcode']),
          time_zone: text(location?.['timezone']),
          latitude: typeof location?.['latitude'] === 'number' ? Math.fround(location['latitude']) : null,
          asn,
          zh_province: text(chinese?.['region_name']),
          zh_isp: text(chinese?.['isp_domain']),
          hosting: asn !== null && hosting.has(asn),
        };
        expect({
          ip,
          country_code: record?.fields.country_code ?? null,
          region_name: record?.fields.region_name ?? null,
          city_name: record?.fields.city_name ?? null,
          zip_code: record?.fields.zip_code ?? null,
          time_zone: record?.fields.time_zone ?? null,
          latitude: record?.latitude ?? null,
          asn: record?.asn ?? null,
          zh_province: record?.fields.zh_province ?? null,
          zh_isp: record?.fields.zh_isp ?? null,
          hosting: ((record?.flags ?? 0) & FLAG.isHosting) !== 0,
        }).toEqual(expected);
      }
    }
  });
});
