import type { ChineseNames, IpInfo } from '@ipdata/proto/lookup/v1/lookup';

/**
 * How BatchLookupCompact splits an IpInfo into the parts many answers share (lookup.proto,
 * BatchLookupCompactResponse). The engine splits with these lists (splitIpInfo); the client's
 * merge (client/compact-batch-decoder.ts) writes the same fields back by hand, for speed, and a
 * unit test checks that the groups plus PER_ANSWER_FIELDS cover every IpInfo field once.
 */
export const COUNTRY_FIELDS = [
  'countryCode',
  'countryName',
  'countryCapital',
  'isEu',
  'callingCode',
  'countryFlag',
  'currency',
] as const satisfies ReadonlyArray<keyof IpInfo>;

export const PLACE_FIELDS = [
  'regionName',
  'cityName',
  'latitude',
  'longitude',
  'zipCode',
  'weatherStationCode',
  'weatherStationName',
  'elevation',
] as const satisfies ReadonlyArray<keyof IpInfo>;

export const OPERATOR_FIELDS = ['asn', 'isProxy', 'proxyData'] as const satisfies ReadonlyArray<keyof IpInfo>;

/** Written per answer: its own fields, the time zone (a list of its own) and zh, assembled from the parts. */
export const PER_ANSWER_FIELDS = [
  'ip',
  'timeZone',
  'startIp',
  'endIp',
  'networks',
  'reserved',
  'zh',
] as const satisfies ReadonlyArray<keyof IpInfo>;

/** Which part carries each Chinese name. */
export const ZH_FIELDS = {
  country: ['country'],
  place: ['province', 'city'],
  operator: ['isp'],
} as const satisfies Record<'country' | 'place' | 'operator', ReadonlyArray<keyof ChineseNames>>;

export interface IpInfoParts {
  country: Partial<IpInfo>;
  place: Partial<IpInfo>;
  operator: Partial<IpInfo>;
}

/** The three parts of a record's IpInfo (staticIpInfo), each with only its fields set. */
export function splitIpInfo(info: IpInfo): IpInfoParts {
  return {
    country: pick(info, COUNTRY_FIELDS, ZH_FIELDS.country),
    place: pick(info, PLACE_FIELDS, ZH_FIELDS.place),
    operator: pick(info, OPERATOR_FIELDS, ZH_FIELDS.operator),
  };
}

/** The fields of `info` in `fields` (and those of its zh names in `zhFields`) that are set. */
function pick(info: IpInfo, fields: ReadonlyArray<keyof IpInfo>, zhFields: ReadonlyArray<keyof ChineseNames>): Partial<IpInfo> {
  // Plain assignments: an object literal with a computed key per field (Object.assign) was a
  // fifth of the cost of splitting a record, which every record pays when first answered.
  const part: Record<string, unknown> = {};
  for (const field of fields) {
    const value = info[field];
    if (value !== undefined) part[field] = value;
  }
  let zh: ChineseNames | undefined;
  for (const field of zhFields) {
    const value = info.zh?.[field];
    if (value === undefined) continue;
    zh ??= { country: undefined, province: undefined, city: undefined, isp: undefined };
    zh[field] = value;
  }
  if (zh !== undefined) part['zh'] = zh;
  return part;
}
