/**
 * The constants of the dataset file format (services/dataset/docs/dataset-format.md). Writer and
 * reader both import them, so the two cannot disagree.
 */
/**
 * The dataset file's name inside a version folder (`<DATASETS_DIR>/<version>/ipdata.ipdat`): the
 * build writes it, the lookup engine finds and loads it.
 */
export const DATASET_FILE = 'ipdata.ipdat';
export const MAGIC = 'IPDATSET';
export const FORMAT_VERSION = 1;
/** Fixed header before the section table: magic 8, version 4, json length 4, file length 8, section count 4, reserved 4. */
export const FIXED_HEADER_BYTES = 32;
export const SECTION_ENTRY_BYTES = 24;
export const CHECKSUM_BYTES = 32;
/** Every section starts on an 8-byte boundary so typed arrays can view it in place. */
export const SECTION_ALIGNMENT = 8;
/** Marks "no value": a string field without a source, an address range without data. */
export const NONE = 0xffffffff;

export enum SectionId {
  Strings = 1,
  RecordStrings = 2,
  RecordAsn = 3,
  RecordCoordinates = 4,
  RecordFlags = 5,
  Ipv4Starts = 6,
  Ipv4Records = 7,
  Ipv6Starts = 8,
  Ipv6Records = 9,
  AsnTable = 10,
  AsnPrefixesV4 = 11,
  AsnPrefixesV6 = 12,
}

/**
 * String-valued record fields, in column order. Each record stores one string-table index per
 * field (NONE when the field has no source), so a record is a fixed-width row.
 */
export const STRING_FIELDS = [
  'country_code',
  'country_name',
  'country_capital',
  'continent_code',
  'region_name',
  'city_name',
  'zip_code',
  'calling_code',
  'country_flag',
  'time_zone',
  'currency_code',
  'currency_name',
  'currency_symbol',
  'asn_name',
  'asn_domain',
  'usage_type',
  'isp',
  'organization',
  'weather_station_code',
  'weather_station_name',
  'zh_country',
  'zh_province',
  'zh_city',
  'zh_isp',
  'privacy_rule',
] as const;

export type StringField = (typeof STRING_FIELDS)[number];
export const STRING_FIELD_COUNT = STRING_FIELDS.length;
export const STRING_FIELD_INDEX = Object.fromEntries(STRING_FIELDS.map((name, index) => [name, index])) as Record<
  StringField,
  number
>;

/** Bits of the per-record flags byte (RecordFlags section). */
export const FLAG = {
  isEu: 1 << 0,
  isEuKnown: 1 << 1,
  isVpn: 1 << 2,
  isTor: 1 << 3,
  isDataCenter: 1 << 4,
  isProxy: 1 << 5,
  isRelay: 1 << 6,
  isHosting: 1 << 7,
} as const;

/** AsnTable row: asn, name, organization, country code, usage type, v4 prefix start, v4 count, v6 start, v6 count. */
export const ASN_ROW_WORDS = 9;
/** AsnPrefixesV4 row: network address, prefix length. AsnPrefixesV6 row: 4 address words, prefix length. */
export const ASN_PREFIX_V4_WORDS = 2;
export const ASN_PREFIX_V6_WORDS = 5;

export interface SourceInfo {
  name: string;
  version: string;
  licence: string;
}

/** The JSON part of the header. */
export interface DatasetHeader {
  datasetVersion: string;
  /** ISO 8601. */
  builtAt: string;
  sources: SourceInfo[];
  stringFields: string[];
  counts: { strings: number; records: number; ipv4Ranges: number; ipv6Ranges: number; asns: number };
}

export class DatasetFormatError extends Error {
  override name = 'DatasetFormatError';
}
