import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceInputs } from '../build/load-sources.js';
import { DATA_DIR } from '../config.js';
import { icuSource, ruleSource, type SourceDescription } from '../sources/source-catalogue.js';
import { writeIpdb, writeMmdb } from './synthetic-sources.js';

const geo = (country: string, city: string, latitude: number, longitude: number, timezone: string) => ({
  country_code: country,
  state1: city === '' ? '' : `${city} State`,
  state2: '',
  city,
  postcode: '',
  latitude,
  longitude,
  timezone,
});

/**
 * A small, complete set of inputs in a fresh folder: GeoLite2-shaped mmdb files, ASN CSVs, a
 * qqwry-shaped ipdb, our real rule files and one Tor list. Returns what buildDataset needs.
 */
export function syntheticInputs(): { folder: string; inputs: SourceInputs; sources: SourceDescription[] } {
  const folder = mkdtempSync(join(tmpdir(), 'dataset-synthetic-'));
  const lists = join(folder, 'privacy-lists');
  mkdirSync(lists);
  const paths = {
    geoliteV4: join(folder, 'city-ipv4.mmdb'),
    geoliteV6: join(folder, 'city-ipv6.mmdb'),
    asnV4: join(folder, 'asn-ipv4-num.csv'),
    asnV6: join(folder, 'asn-ipv6.csv'),
    qqwry: join(folder, 'qqwry.ipdb'),
  };
  writeMmdb(paths.geoliteV4, 4, [
    { network: '1.0.0.0/24', record: geo('AU', 'Sydney', -33.8688, 151.2093, 'Australia/Sydney') },
    { network: '1.0.1.0/24', record: geo('AU', 'Sydney', -33.8688, 151.2093, 'Australia/Sydney') },
    { network: '5.9.0.0/16', record: geo('DE', 'Falkenstein', 50.4779, 12.3713, 'Europe/Berlin') },
    { network: '36.0.0.0/8', record: geo('CN', '', 34.7732, 113.722, 'Asia/Shanghai') },
  ]);
  writeMmdb(paths.geoliteV6, 6, [{ network: '2a01:4f8::/32', record: geo('DE', '', 51.2993, 9.491, 'Europe/Berlin') }]);
  writeFileSync(
    paths.asnV4,
    [
      '16777216,16777471,13335,"Cloudflare, Inc."',
      '16777472,16777727,38803,Gtelecom Pty Ltd',
      '84475904,84541439,24940,Hetzner Online GmbH',
      '',
    ].join('\n'),
  );
  writeFileSync(paths.asnV6, '2a01:4f8::,2a01:4f8:ffff:ffff:ffff:ffff:ffff:ffff,24940,Hetzner Online GmbH\n');
  writeIpdb(paths.qqwry, [
    { network: '1.0.0.0/23', fields: ['澳大利亚', '新南威尔士州', '悉尼', '', '', 'Cloudflare', 'AU', 'OC'] },
    { network: '36.0.0.0/9', fields: ['中国', '北京', '北京', '', '', '电信', 'CN', 'AS'] },
    { network: '2a01:4f8::/32', fields: ['德国', '', '', '', '', 'Hetzner', 'DE', 'EU'] },
  ]);
  const torList = join(lists, 'tor-exits.csv');
  writeFileSync(torList, '# synthetic Tor exits\nstart,end,label\n5.9.10.1,5.9.10.1,exit\n5.9.10.2,5.9.10.3\n');
  const hostingAsnsFile = join(folder, 'hosting-asns.csv');
  const euFile = join(folder, 'eu-member-states.csv');
  copyFileSync(join(DATA_DIR, 'hosting-asns.csv'), hostingAsnsFile);
  copyFileSync(join(DATA_DIR, 'eu-member-states.csv'), euFile);

  const source = (name: string, files: string[], date: string): SourceDescription => ({
    name,
    origin: 'synthetic',
    version: date,
    licence: 'test data',
    files,
    licenceFiles: [],
    date,
  });
  return {
    folder,
    inputs: { paths, hostingAsnsFile, euFile, rangeListFiles: [torList] },
    sources: [
      source('geolite2-city', [paths.geoliteV4, paths.geoliteV6], '2026-06-17'),
      source('asn', [paths.asnV4, paths.asnV6], '2026-06-17'),
      source('qqwry', [paths.qqwry], '2026-09-16'),
      icuSource(),
      ruleSource('hosting-asns', [hostingAsnsFile], 'project data'),
      ruleSource('eu-member-states', [euFile], 'project data'),
      ruleSource('privacy-lists', [torList], 'test data'),
    ],
  };
}
