import { formatIpv6, mappedIpv4, parseIpv4, parseIpv6 } from '@ipdata/common/ip';
import { type IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { FieldSet } from './field-set.js';

/**
 * The public answers of `GET /v1/ip/{ip}` and `GET /v1/privacy/{ip}`: the spec's IP info result
 * (product spec section 3), snake_case, every field present in spec order. A field without a
 * source is null, never omitted and never a default such as 0 or false (the engine's proto3
 * defaults are told apart from real values below).
 */

/** Why an address has no location, as the API spells it. */
export type ReservedWord =
  | 'private'
  | 'loopback'
  | 'link_local'
  | 'multicast'
  | 'documentation'
  | 'unspecified'
  | 'shared_address_space'
  | 'benchmarking'
  | 'broadcast'
  | 'other';

export interface IpAsnView {
  /** The AS number as an integer (13335), the same value `GET /v1/asn/{asn}` answers with. */
  asn: number;
  asn_name: string | null;
  domain: string | null;
  usage_type: string | null;
  isp: string | null;
  organization: string | null;
}

export interface TimeZoneView {
  /** IANA name, e.g. "America/Los_Angeles". */
  name: string;
  /** UTC offset at lookup time, e.g. "-07:00". */
  offset: string;
  /** Local time at lookup time, ISO 8601 with offset. */
  current_time: string;
}

export interface CurrencyView {
  code: string;
  name: string | null;
  symbol: string | null;
}

export interface ProxyDataView {
  is_vpn: boolean;
  is_tor: boolean;
  is_data_center: boolean;
  is_proxy: boolean;
  is_relay: boolean;
  is_hosting: boolean;
}

export interface IpInfoView {
  /** Canonical: dotted quad, RFC 5952 IPv6; `::ffff:a.b.c.d` answers as `a.b.c.d`. */
  ip: string;
  country_code: string | null;
  country_name: string | null;
  country_capital: string | null;
  region_name: string | null;
  city_name: string | null;
  latitude: number | null;
  longitude: number | null;
  zip_code: string | null;
  is_eu: boolean | null;
  calling_code: string | null;
  country_flag: string | null;
  weather_station_code: string | null;
  weather_station_name: string | null;
  elevation: number | null;
  asn: IpAsnView | null;
  time_zone: TimeZoneView | null;
  currency: CurrencyView | null;
  /** null when the dataset has no record for the address (reserved, or not covered). */
  is_proxy: boolean | null;
  proxy_data: ProxyDataView | null;
  /** First and last address of the range the answer is valid for. */
  start_ip: string | null;
  end_ip: string | null;
  /** The one CIDR block of that range that contains `ip`. */
  network: string | null;
  /** Set for special-purpose addresses, which answer without location. */
  reserved: ReservedWord | null;
}

export interface PrivacyView {
  ip: string;
  is_proxy: boolean | null;
  proxy_data: ProxyDataView | null;
  reserved: ReservedWord | null;
}

const PROXY_CHILDREN = ['is_vpn', 'is_tor', 'is_data_center', 'is_proxy', 'is_relay', 'is_hosting'] as const;

/** IpInfoView as data, in answer order (a unit test keeps it equal to what ipInfoView builds). */
export const IP_INFO_FIELDS: FieldSet = [
  { name: 'ip' },
  { name: 'country_code' },
  { name: 'country_name' },
  { name: 'country_capital' },
  { name: 'region_name' },
  { name: 'city_name' },
  { name: 'latitude' },
  { name: 'longitude' },
  { name: 'zip_code' },
  { name: 'is_eu' },
  { name: 'calling_code' },
  { name: 'country_flag' },
  { name: 'weather_station_code' },
  { name: 'weather_station_name' },
  { name: 'elevation' },
  { name: 'asn', children: ['asn', 'asn_name', 'domain', 'usage_type', 'isp', 'organization'] },
  { name: 'time_zone', children: ['name', 'offset', 'current_time'] },
  { name: 'currency', children: ['code', 'name', 'symbol'] },
  { name: 'is_proxy' },
  { name: 'proxy_data', children: PROXY_CHILDREN },
  { name: 'start_ip' },
  { name: 'end_ip' },
  { name: 'network' },
  { name: 'reserved' },
];

export const PRIVACY_FIELDS: FieldSet = [
  { name: 'ip' },
  { name: 'is_proxy' },
  { name: 'proxy_data', children: PROXY_CHILDREN },
  { name: 'reserved' },
];

// Indexed by the enum's value; anything else non-zero (a reason added to the proto later,
// UNRECOGNIZED) is 'other', so a new reason never answers as "not reserved".
const RESERVED_WORDS: readonly (ReservedWord | null)[] = [];
{
  const words = RESERVED_WORDS as (ReservedWord | null)[];
  words[ReservedReason.RESERVED_REASON_UNSPECIFIED] = null;
  words[ReservedReason.RESERVED_REASON_PRIVATE] = 'private';
  words[ReservedReason.RESERVED_REASON_LOOPBACK] = 'loopback';
  words[ReservedReason.RESERVED_REASON_LINK_LOCAL] = 'link_local';
  words[ReservedReason.RESERVED_REASON_MULTICAST] = 'multicast';
  words[ReservedReason.RESERVED_REASON_DOCUMENTATION] = 'documentation';
  words[ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS] = 'unspecified';
  words[ReservedReason.RESERVED_REASON_SHARED_ADDRESS_SPACE] = 'shared_address_space';
  words[ReservedReason.RESERVED_REASON_BENCHMARKING] = 'benchmarking';
  words[ReservedReason.RESERVED_REASON_BROADCAST] = 'broadcast';
  words[ReservedReason.RESERVED_REASON_OTHER] = 'other';
}

/** The API word for a reserved reason: null for "not reserved", 'other' for unknown values. */
export function reservedWord(reason: ReservedReason | undefined): ReservedWord | null {
  if (reason === undefined || reason === ReservedReason.RESERVED_REASON_UNSPECIFIED) return null;
  return RESERVED_WORDS[reason] ?? 'other';
}

// Scratch words for the address and for a network (synchronous use only).
const addressWords = new Uint32Array(4);
const networkWords = new Uint32Array(4);
const NOT_PARSED = -1;
const IPV6 = -2;

/**
 * The engine echoes the query as sent (`2001:DB8::1`, `::ffff:8.8.8.8`). Parses it into the
 * IPv4 value (returned) or IPv6 words (`addressWords`, returns IPV6); NOT_PARSED never happens
 * for an address the engine answered, and then the text stays as it came.
 */
function parseAnswered(text: string): number {
  if (text.indexOf(':') < 0) return parseIpv4(text);
  if (!parseIpv6(text, addressWords)) return NOT_PARSED;
  const mapped = mappedIpv4(addressWords);
  return mapped < 0 ? IPV6 : mapped;
}

function prefixLengthOf(cidr: string, slash: number): number {
  const length = Number(cidr.slice(slash + 1));
  return Number.isInteger(length) ? length : NOT_PARSED;
}

/** The block of `networks` (IPv4 CIDR text) that contains `address`, or null. */
function ipv4Network(address: number, networks: readonly string[]): string | null {
  for (const cidr of networks) {
    const slash = cidr.indexOf('/');
    if (slash < 0 || cidr.indexOf(':') >= 0) continue;
    const network = parseIpv4(cidr, 0, slash);
    const length = prefixLengthOf(cidr, slash);
    if (network < 0 || length < 0 || length > 32) continue;
    // `>>> 32` shifts by 0 in JavaScript, so /0 (every address) is its own case.
    if (length === 0 || (address ^ network) >>> (32 - length) === 0) return cidr;
  }
  return null;
}

/** The block of `networks` (IPv6 CIDR text) that contains the address in `addressWords`, or null. */
function ipv6Network(networks: readonly string[]): string | null {
  for (const cidr of networks) {
    const slash = cidr.indexOf('/');
    if (slash < 0 || !parseIpv6(cidr.slice(0, slash), networkWords)) continue;
    const length = prefixLengthOf(cidr, slash);
    if (length < 0 || length > 128) continue;
    let inside = true;
    for (let w = 0, bits = length; w < 4 && bits > 0; w++, bits -= 32) {
      const differ = ((addressWords[w] as number) ^ (networkWords[w] as number)) >>> 0;
      if (bits >= 32 ? differ !== 0 : differ >>> (32 - bits) !== 0) {
        inside = false;
        break;
      }
    }
    if (inside) return cidr;
  }
  return null;
}

interface AnsweredAddress {
  ip: string;
  network: string | null;
}

/**
 * The canonical address and (when asked) the network containing it, from the engine's echo and
 * ranges.
 */
function answeredAddress(info: IpInfo, withNetwork: boolean): AnsweredAddress {
  const value = parseAnswered(info.ip);
  if (value === NOT_PARSED) return { ip: info.ip, network: null };
  if (value === IPV6) return { ip: formatIpv6(addressWords), network: withNetwork ? ipv6Network(info.networks) : null };
  // Valid IPv4 text without a colon is already canonical (the parser refuses leading zeros and
  // anything but digits and dots), so the hot path keeps the engine's string.
  const ip = info.ip.indexOf(':') < 0 ? info.ip : `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
  return { ip, network: withNetwork ? ipv4Network(value, info.networks) : null };
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const textOrNull = (value: string): string | null => (value === '' ? null : value);

/** The full answer of `GET /v1/ip/{ip}` for one engine answer. */
/**
 * The dataset keeps coordinates as 32-bit floats (37.751 comes back as 37.750999450683594); the
 * sources give at most 4 decimals (about 11 m), so 4 decimals is the value as published.
 */
function coordinate(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 10_000) / 10_000;
}

export function ipInfoView(info: IpInfo): IpInfoView {
  const { ip, network } = answeredAddress(info, true);
  const reserved = reservedWord(info.reserved);
  const startIp = textOrNull(info.startIp);
  const endIp = textOrNull(info.endIp);
  if (reserved !== null) return reservedView(ip, startIp, endIp, network, reserved);
  const asn = info.asn;
  const zone = info.timeZone;
  const currency = info.currency;
  const proxy = info.proxyData;
  return {
    ip,
    country_code: orNull(info.countryCode),
    country_name: orNull(info.countryName),
    country_capital: orNull(info.countryCapital),
    region_name: orNull(info.regionName),
    city_name: orNull(info.cityName),
    latitude: coordinate(info.latitude),
    longitude: coordinate(info.longitude),
    zip_code: orNull(info.zipCode),
    is_eu: orNull(info.isEu),
    calling_code: orNull(info.callingCode),
    country_flag: orNull(info.countryFlag),
    weather_station_code: orNull(info.weatherStationCode),
    weather_station_name: orNull(info.weatherStationName),
    elevation: orNull(info.elevation),
    asn:
      asn === undefined
        ? null
        : {
            asn: asn.asn,
            asn_name: orNull(asn.asnName),
            domain: orNull(asn.domain),
            usage_type: orNull(asn.usageType),
            isp: orNull(asn.isp),
            organization: orNull(asn.organization),
          },
    time_zone: zone === undefined ? null : { name: zone.name, offset: zone.offset, current_time: zone.currentTime },
    currency:
      currency === undefined ? null : { code: currency.code, name: orNull(currency.name), symbol: orNull(currency.symbol) },
    // proto3 gives is_proxy false when the dataset has no record; proxy_data is present exactly
    // when there is one (both decoders), so it tells "not a proxy" from "unknown".
    is_proxy: proxy === undefined ? null : info.isProxy,
    proxy_data: proxy === undefined ? null : proxyDataView(proxy),
    start_ip: startIp,
    end_ip: endIp,
    network,
    reserved: null,
  };
}

function proxyDataView(proxy: NonNullable<IpInfo['proxyData']>): ProxyDataView {
  return {
    is_vpn: proxy.isVpn,
    is_tor: proxy.isTor,
    is_data_center: proxy.isDataCenter,
    is_proxy: proxy.isProxy,
    is_relay: proxy.isRelay,
    is_hosting: proxy.isHosting,
  };
}

/**
 * A special-purpose address: the address, its range and the reason; everything the dataset would
 * say about a place or an operator is null, whatever the engine sent.
 */
function reservedView(
  ip: string,
  startIp: string | null,
  endIp: string | null,
  network: string | null,
  reserved: ReservedWord,
): IpInfoView {
  return {
    ip,
    country_code: null,
    country_name: null,
    country_capital: null,
    region_name: null,
    city_name: null,
    latitude: null,
    longitude: null,
    zip_code: null,
    is_eu: null,
    calling_code: null,
    country_flag: null,
    weather_station_code: null,
    weather_station_name: null,
    elevation: null,
    asn: null,
    time_zone: null,
    currency: null,
    is_proxy: null,
    proxy_data: null,
    start_ip: startIp,
    end_ip: endIp,
    network,
    reserved,
  };
}

/** The answer of `GET /v1/privacy/{ip}`: the privacy part of the same rules as ipInfoView. */
export function privacyView(info: IpInfo): PrivacyView {
  const ip = answeredAddress(info, false).ip;
  const reserved = reservedWord(info.reserved);
  const proxy = reserved === null ? info.proxyData : undefined;
  return {
    ip,
    is_proxy: proxy === undefined ? null : info.isProxy,
    proxy_data: proxy === undefined ? null : proxyDataView(proxy),
    reserved,
  };
}
