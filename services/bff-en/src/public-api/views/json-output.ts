import type { IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import type { IpInfoView } from './ip-info.view.js';

/**
 * JSON bodies. Everything goes through JSON.stringify (`pretty=1`: two-space indent) except the
 * hot path's whole IP answer, which ipInfoJson writes from the view's known shape: measured about
 * twice as fast as JSON.stringify on the same object (Node 20; the bench in json-output.test.ts
 * prints both), and a property test keeps the two byte-identical.
 *
 * The lookup engine's client decodes a response's asn, time zone, currency and proxy data once and
 * shares those objects among the answers that name them (read-only data): given the answer the
 * view was made from, their JSON is written once per object and reused (a 1,000-address batch
 * has a few hundred distinct ones at most).
 */

export function jsonBody(value: unknown, pretty = false): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** Characters JSON.stringify writes differently from themselves (escapes, lone surrogates). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal; JSON.stringify only when some character needs it (rare in answers). */
function literal(value: string | null): string {
  if (value === null) return 'null';
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * literal() of a value that recurs across answers (country, place, operator names): looked up by
 * the string, which costs less than scanning it. Bounded; addresses and times, unique per answer, go to
 * literal() directly so they never fill it.
 */
const recurring = new Map<string, string>();
const RECURRING_MAX = 20_000;

function str(value: string | null): string {
  if (value === null) return 'null';
  let json = recurring.get(value);
  if (json === undefined) {
    json = literal(value);
    if (recurring.size >= RECURRING_MAX) recurring.clear();
    recurring.set(value, json);
  }
  return json;
}

function num(value: number | null): string {
  // JSON has no NaN or Infinity: JSON.stringify writes null for them, and so does this.
  return value === null || !Number.isFinite(value) ? 'null' : `${value}`;
}

function bool(value: boolean | null): string {
  return value === null ? 'null' : value ? 'true' : 'false';
}

type AsnView = NonNullable<IpInfoView['asn']>;
type ZoneView = NonNullable<IpInfoView['time_zone']>;
type CurrencyView = NonNullable<IpInfoView['currency']>;
type ProxyView = NonNullable<IpInfoView['proxy_data']>;

const asnJson = (a: AsnView) =>
  `{"asn":${num(a.asn)},"asn_name":${str(a.asn_name)},"domain":${str(a.domain)},"usage_type":${str(a.usage_type)},"isp":${str(a.isp)},"organization":${str(a.organization)}}`;
const zoneJson = (z: ZoneView) => `{"name":${str(z.name)},"offset":${str(z.offset)},"current_time":${literal(z.current_time)}}`;
const currencyJson = (c: CurrencyView) => `{"code":${str(c.code)},"name":${str(c.name)},"symbol":${str(c.symbol)}}`;
const proxyJson = (d: ProxyView) =>
  `{"is_vpn":${bool(d.is_vpn)},"is_tor":${bool(d.is_tor)},"is_data_center":${bool(d.is_data_center)},"is_proxy":${bool(d.is_proxy)},"is_relay":${bool(d.is_relay)},"is_hosting":${bool(d.is_hosting)}}`;

/** JSON of the decoder's shared objects, by identity; entries go with their response. */
const fragments = new WeakMap<object, string>();

function part<V>(view: V | null, source: object | undefined, write: (view: V) => string): string {
  if (view === null) return 'null';
  if (source === undefined) return write(view);
  let json = fragments.get(source);
  if (json === undefined) {
    json = write(view);
    fragments.set(source, json);
  }
  return json;
}

/*
 * An answer's JSON in the segments the lookup engine's parts decide (lookup/ip-info-parts.ts in
 * the engine): each segment reads only fields of one part, so a batch can write a part's
 * segments once and copy them into every answer that names the part (views/batch-json.ts).
 * Each segment ends with a comma.
 */

/** country_code, country_name, country_capital (the country part). */
export const countryHeadJson = (v: IpInfoView) =>
  `"country_code":${str(v.country_code)},"country_name":${str(v.country_name)},"country_capital":${str(v.country_capital)},`;
/** region_name .. zip_code (the place part). */
export const placeHeadJson = (v: IpInfoView) =>
  `"region_name":${str(v.region_name)},"city_name":${str(v.city_name)},"latitude":${num(v.latitude)},` +
  `"longitude":${num(v.longitude)},"zip_code":${str(v.zip_code)},`;
/** is_eu, calling_code, country_flag (the country part). */
export const countryMidJson = (v: IpInfoView) =>
  `"is_eu":${bool(v.is_eu)},"calling_code":${str(v.calling_code)},"country_flag":${str(v.country_flag)},`;
/** weather_station_code .. elevation (the place part). */
export const placeTailJson = (v: IpInfoView) =>
  `"weather_station_code":${str(v.weather_station_code)},"weather_station_name":${str(v.weather_station_name)},` +
  `"elevation":${num(v.elevation)},`;
/** asn (the operator part). */
export const asnSegmentJson = (v: IpInfoView, source?: IpInfo) => `"asn":${part(v.asn, source?.asn, asnJson)},`;
/** time_zone (the time zone part). */
export const zoneSegmentJson = (v: IpInfoView, source?: IpInfo) =>
  `"time_zone":${part(v.time_zone, source?.timeZone, zoneJson)},`;
/** currency (the country part). */
export const currencySegmentJson = (v: IpInfoView, source?: IpInfo) =>
  `"currency":${part(v.currency, source?.currency, currencyJson)},`;
/** is_proxy, proxy_data (the operator part). */
export const proxySegmentJson = (v: IpInfoView, source?: IpInfo) =>
  `"is_proxy":${bool(v.is_proxy)},"proxy_data":${part(v.proxy_data, source?.proxyData, proxyJson)},`;

/** `{"ip":"…",`: the answer's own start. */
const ipHeadJson = (ip: string) => `{"ip":${literal(ip)},`;
/** start_ip, end_ip, network, reserved and the closing brace: the answer's own end. */
const rangeTailJson = (v: Pick<IpInfoView, 'start_ip' | 'end_ip' | 'network' | 'reserved'>) =>
  `"start_ip":${literal(v.start_ip)},"end_ip":${literal(v.end_ip)},"network":${literal(v.network)},"reserved":${str(v.reserved)}}`;

/**
 * Exactly JSON.stringify(view) for an IpInfoView, without walking it generically. `source`: the
 * answer `v` was made from (ipInfoView(source)) when its nested objects are shared read-only data.
 */
export function ipInfoJson(v: IpInfoView, source?: IpInfo): string {
  return (
    ipHeadJson(v.ip) +
    countryHeadJson(v) +
    placeHeadJson(v) +
    countryMidJson(v) +
    placeTailJson(v) +
    asnSegmentJson(v, source) +
    zoneSegmentJson(v, source) +
    currencySegmentJson(v, source) +
    proxySegmentJson(v, source) +
    rangeTailJson(v)
  );
}
