import { FLAG, type DatasetContent, type DatasetRecord } from '../format/index.js';
import { icuCountryNames } from '../output/mmdb/mmdb-record.js';
import { CHINA_COUNTRY_CODES, CHINA_DIVISIONS, DIVISION_OF_COUNTRY, mainlandDivisionOf } from './china-divisions.js';
import { collectIdcOrganizations, type IdcRecord } from './idc-organizations.js';
import { RecordAddresses } from './record-addresses.js';
import { STATISTICS_FORMAT, type AddressCount, type DatasetStatistics } from './statistics-file.js';

/** An address count while summing: IPv6 as a bigint. */
export class Tally {
  ipv4 = 0;
  ipv6 = 0n;

  add(ipv4: number, ipv6: bigint): void {
    this.ipv4 += ipv4;
    this.ipv6 += ipv6;
  }

  toJSON(): AddressCount {
    return { ipv4: this.ipv4, ipv6: this.ipv6.toString() };
  }
}

/** Largest IPv4 first, then largest IPv6. */
export function byAddresses(a: AddressCount | Tally, b: AddressCount | Tally): number {
  if (a.ipv4 !== b.ipv4) return b.ipv4 - a.ipv4;
  const a6 = BigInt(a.ipv6);
  const b6 = BigInt(b.ipv6);
  return a6 === b6 ? 0 : a6 > b6 ? -1 : 1;
}

const IDC_FLAGS = FLAG.isDataCenter | FLAG.isHosting;

/** Flagged by the hosting/data-centre rule (or any rule setting those flags), or usage type DCH. */
function isIdc(record: DatasetRecord): boolean {
  return (record.flags & IDC_FLAGS) !== 0 || record.fields.usage_type === 'DCH';
}

/**
 * The version's statistics from the merged dataset (pure: tables in, numbers out). Every count
 * is a sum of range sizes over the merged range tables, by the range's record: per country by
 * the record's GeoLite2 country code; per Chinese division by GeoLite2's HK/MO/TW codes or, for
 * CN, by qqwry's province name; IDC organisations from the records of CN/HK/MO/TW that the
 * hosting rule flags, grouped by AS organisation. README "Statistics" documents each number.
 */
export function computeStatistics(content: DatasetContent): DatasetStatistics {
  const { records } = content;
  const addresses = new RecordAddresses(records.length, content.ipv4, content.ipv6);
  const zhName = icuCountryNames();

  const countries = new Map<string, { tally: Tally; nameEn: string | null }>();
  const total = new Tally();
  const unlocated = new Tally();
  const provinces = new Map(CHINA_DIVISIONS.map((entry) => [entry.code, new Tally()]));
  const chinaTotal = new Tally();
  const unattributed = new Tally();
  const idcRecords: IdcRecord[] = [];

  for (let index = 0; index < records.length; index++) {
    const ipv4 = addresses.ipv4[index] as number;
    const ipv6 = addresses.hasIpv6(index) ? addresses.ipv6(index) : 0n;
    if (ipv4 === 0 && ipv6 === 0n) continue;
    const record = records[index] as DatasetRecord;
    const code = record.fields.country_code ?? null;
    if (code === null) {
      unlocated.add(ipv4, ipv6);
      continue;
    }
    total.add(ipv4, ipv6);
    let country = countries.get(code);
    if (country === undefined) {
      country = { tally: new Tally(), nameEn: record.fields.country_name ?? null };
      countries.set(code, country);
    }
    country.tally.add(ipv4, ipv6);

    if (!CHINA_COUNTRY_CODES.has(code)) continue;
    chinaTotal.add(ipv4, ipv6);
    const division = DIVISION_OF_COUNTRY[code] ?? mainlandDivisionOf(record.fields.zh_province)?.code ?? '';
    (division === '' ? unattributed : (provinces.get(division) as Tally)).add(ipv4, ipv6);
    if (isIdc(record)) idcRecords.push({ index, record, ipv4, ipv6, division });
  }

  const idc = collectIdcOrganizations(idcRecords, records.length, content.ipv4, content.ipv6);
  const idcPerDivision = new Map<string, number>();
  for (const organization of idc) {
    for (const { code } of organization.provinces) idcPerDivision.set(code, (idcPerDivision.get(code) ?? 0) + 1);
  }

  return {
    format: STATISTICS_FORMAT,
    datasetVersion: content.datasetVersion,
    builtAt: content.builtAt.toISOString(),
    total: total.toJSON(),
    unlocated: unlocated.toJSON(),
    countries: [...countries.entries()]
      .map(([code, { tally, nameEn }]) => ({ code, nameEn, nameZh: zhName(code), ...tally.toJSON() }))
      .sort((a, b) => byAddresses(a, b) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
    china: {
      total: chinaTotal.toJSON(),
      unattributed: unattributed.toJSON(),
      provinces: CHINA_DIVISIONS.map(({ code }) => ({
        code,
        ...(provinces.get(code) as Tally).toJSON(),
        idcOrganizations: idcPerDivision.get(code) ?? 0,
      })),
    },
    idc,
  };
}
