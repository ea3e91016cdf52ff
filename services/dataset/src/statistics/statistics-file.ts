/**
 * `statistics.json` in every version folder (written by the build, read by the lookup engine):
 * address counts of the version per country, per Chinese province-level division, and the
 * Chinese hosting/data-centre organisations. How each number is counted: services/dataset/README.md
 * "Statistics".
 */
export const STATISTICS_FILE = 'statistics.json';
/** Bumped when the file's shape changes; readers refuse other formats. */
export const STATISTICS_FORMAT = 1;

/**
 * Addresses: IPv4 as a number (at most 2^32, exact in a double), IPv6 as a decimal string
 * (counts reach 2^128, beyond what a double holds exactly).
 */
export interface AddressCount {
  ipv4: number;
  ipv6: string;
}

export interface CountryCount extends AddressCount {
  /** ISO 3166-1 alpha-2, as GeoLite2 gives it. */
  code: string;
  nameEn: string | null;
  nameZh: string | null;
}

export interface ProvinceCount extends AddressCount {
  /** GB/T 2260 two-digit code (china-divisions.ts). */
  code: string;
  /** Hosting/data-centre organisations with addresses in the division. */
  idcOrganizations: number;
}

export interface IdcOrganization extends AddressCount {
  /** nameZh when there is one, else the AS organisation. */
  name: string;
  /** The qqwry ISP name covering most of the organisation's addresses, when it covers more than half. */
  nameZh: string | null;
  /** The AS organisation (ASN CSV) the ranges carry: what groups them. */
  organization: string;
  asns: number[];
  /** CIDR blocks covering the organisation's flagged ranges (neighbouring ranges joined first). */
  prefixes: number;
  /** Divisions with addresses of the organisation, by code, largest first. */
  provinces: Array<AddressCount & { code: string }>;
}

export interface DatasetStatistics {
  format: number;
  datasetVersion: string;
  /** ISO 8601, the version's builtAt. */
  builtAt: string;
  /** Addresses with a country (the sum of `countries`). */
  total: AddressCount;
  /** Addresses of ranges with data but no country (reserved space qqwry names "IANA", ...). */
  unlocated: AddressCount;
  /** Largest IPv4 count first, then largest IPv6, then code. */
  countries: CountryCount[];
  china: {
    /** CN, HK, MO and TW together: the sum of `provinces` and `unattributed`. */
    total: AddressCount;
    /** CN addresses whose qqwry province names no mainland division. */
    unattributed: AddressCount;
    /** All 34 divisions, in code order, zeros included. */
    provinces: ProvinceCount[];
  };
  /** Largest IPv4 count first, then largest IPv6, then name. */
  idc: IdcOrganization[];
}

export class StatisticsFormatError extends Error {
  override name = 'StatisticsFormatError';
}

const isCount = (value: unknown): value is AddressCount => {
  const count = value as AddressCount;
  return (
    typeof value === 'object' &&
    value !== null &&
    Number.isSafeInteger(count.ipv4) &&
    count.ipv4 >= 0 &&
    typeof count.ipv6 === 'string' &&
    /^(0|[1-9][0-9]{0,38})$/.test(count.ipv6)
  );
};

/**
 * Parses and checks a statistics file: the format number, the shape of every entry (a file
 * that fails is refused whole, never half used).
 */
export function parseStatistics(text: string): DatasetStatistics {
  let value: DatasetStatistics;
  try {
    value = JSON.parse(text) as DatasetStatistics;
  } catch (error) {
    throw new StatisticsFormatError(`not JSON: ${(error as Error).message}`);
  }
  const fail = (what: string): never => {
    throw new StatisticsFormatError(what);
  };
  if (typeof value !== 'object' || value === null) fail('not an object');
  if (value.format !== STATISTICS_FORMAT) fail(`format ${String(value.format)}, expected ${STATISTICS_FORMAT}`);
  if (typeof value.datasetVersion !== 'string' || value.datasetVersion === '') fail('datasetVersion missing');
  if (typeof value.builtAt !== 'string' || Number.isNaN(Date.parse(value.builtAt))) fail('builtAt is not a date');
  if (!isCount(value.total) || !isCount(value.unlocated)) fail('total or unlocated is not an address count');
  if (!Array.isArray(value.countries)) fail('countries is not a list');
  value.countries.forEach((country, i) => {
    if (!isCount(country) || typeof country.code !== 'string') fail(`countries[${i}] is malformed`);
  });
  const china = value.china;
  if (typeof china !== 'object' || china === null || !isCount(china.total) || !isCount(china.unattributed))
    fail('china is malformed');
  if (!Array.isArray(china.provinces)) fail('china.provinces is not a list');
  china.provinces.forEach((province, i) => {
    if (!isCount(province) || typeof province.code !== 'string' || !Number.isSafeInteger(province.idcOrganizations))
      fail(`china.provinces[${i}] is malformed`);
  });
  if (!Array.isArray(value.idc)) fail('idc is not a list');
  value.idc.forEach((organization, i) => {
    const ok =
      isCount(organization) &&
      typeof organization.name === 'string' &&
      typeof organization.organization === 'string' &&
      Array.isArray(organization.asns) &&
      organization.asns.every((asn) => Number.isSafeInteger(asn)) &&
      Number.isSafeInteger(organization.prefixes) &&
      Array.isArray(organization.provinces) &&
      organization.provinces.every((province) => isCount(province) && typeof province.code === 'string');
    if (!ok) fail(`idc[${i}] is malformed`);
  });
  return value;
}
