import { forEachIpv4Cidr, formatIpv6, ipv6RangeToCidrs, wordsToBigInt } from '@ipdata/common/ip';
import type { BatchLookupItem, BatchLookupResponse, IpInfo, TimeZone } from '@ipdata/proto/lookup/v1/lookup';
import { DecodeError, WireCursor } from '../wire/wire-cursor.js';
import { Sink } from '../wire/wire-sink.js';
import { decodeIpInfo, decodeTimeZone } from './answer-decoder.js';

/**
 * Turns BatchLookupCompactResponse bytes back into the BatchLookupResponse that BatchLookup
 * answers for the same request: equal to what the generated codec decodes from BatchLookup (the
 * tests compare both paths). Parts are decoded once per response; every item's IpInfo copies its
 * parts' fields (the split is lookup/ip-info-parts.ts) and derives start_ip, end_ip and networks
 * from its range. The nested asn, currency, proxy_data and time_zone objects are the part's own,
 * shared by the answers of one response that name the part: fewer objects per batch, which is
 * most of a client's cost; answers are read-only data (copy one before changing it).
 */

const cursor = new WireCursor();
const first = new Uint32Array(4);
const last = new Uint32Array(4);
/** The IPv4 addresses of a response as ASCII, decoded as one string and cut (see Ipv4Texts). */
const text = new Sink(128 * 1024);

interface Parts {
  countries: IpInfo[];
  places: IpInfo[];
  operators: IpInfo[];
  zones: TimeZone[];
}

export function decodeBatchLookupCompactResponse(bytes: Uint8Array): BatchLookupResponse {
  const c = cursor;
  c.reset(bytes);
  const parts: Parts = { countries: [], places: [], operators: [], zones: [] };
  // Items are built after the whole response is read: the engine sends parts before the items
  // that name them, but protobuf allows any order.
  const bounds: number[] = [];
  while (c.pos < c.end) {
    const tag = c.varint();
    switch (tag) {
      case 10:
        parts.countries.push(decodeIpInfo(c, c.limit()));
        break;
      case 18:
        parts.places.push(decodeIpInfo(c, c.limit()));
        break;
      case 26:
        parts.operators.push(decodeIpInfo(c, c.limit()));
        break;
      case 34:
        parts.zones.push(decodeTimeZone(c, c.limit()));
        break;
      case 42: {
        const end = c.limit();
        bounds.push(c.pos, end);
        c.pos = end;
        break;
      }
      default:
        c.skip(tag & 7);
    }
  }
  const items: BatchLookupItem[] = new Array<BatchLookupItem>(bounds.length / 2);
  const texts = new Ipv4Texts();
  for (let i = 0; i < items.length; i++) {
    c.pos = bounds[2 * i] as number;
    items[i] = decodeItem(c, bounds[2 * i + 1] as number, parts, texts);
  }
  texts.fill();
  return { items };
}

/**
 * start_ip, end_ip and networks of the IPv4 answers: every address is written as ASCII into one
 * buffer, decoded as one string and cut with substring (a copy for short strings, a slice of the
 * big string for longer ones). One string per response instead of one per address: fewer, smaller
 * objects for the young generation to copy while answers are in use.
 */
class Ipv4Texts {
  private readonly infos: IpInfo[] = [];
  /** Per info: where its ends start in `ends`, and its number of networks. */
  private readonly at: number[] = [];
  private readonly ends: number[] = [];

  constructor() {
    text.position = 0;
  }

  add(info: IpInfo, firstIp: number, lastIp: number): void {
    this.infos.push(info);
    this.at.push(this.ends.length);
    const ends = this.ends;
    text.ipv4Text(firstIp);
    ends.push(text.position);
    text.ipv4Text(lastIp);
    ends.push(text.position);
    forEachIpv4Cidr(firstIp, lastIp, (network, prefixLength) => {
      text.ipv4Text(network, prefixLength);
      ends.push(text.position);
    });
  }

  fill(): void {
    const all = text.latin1(0, text.position);
    const ends = this.ends;
    let from = 0;
    for (let k = 0; k < this.infos.length; k++) {
      const info = this.infos[k] as IpInfo;
      const start = this.at[k] as number;
      const stop = k + 1 < this.at.length ? (this.at[k + 1] as number) : ends.length;
      info.startIp = all.substring(from, ends[start]);
      info.endIp = all.substring(ends[start] as number, ends[start + 1]);
      const networks = new Array<string>(stop - start - 2);
      for (let e = start + 2; e < stop; e++) networks[e - start - 2] = all.substring(ends[e - 1] as number, ends[e]);
      info.networks = networks;
      from = ends[stop - 1] as number;
    }
  }
}

function part<T>(list: T[], position: number, what: string): T | undefined {
  if (position === 0) return undefined;
  const found = list[position - 1];
  if (found === undefined) throw new DecodeError(`item names ${what} ${position} of ${list.length}`);
  return found;
}

function decodeItem(c: WireCursor, end: number, parts: Parts, texts: Ipv4Texts): BatchLookupItem {
  let query = '';
  let error = '';
  let countryAt = 0;
  let placeAt = 0;
  let operatorAt = 0;
  let zoneAt = 0;
  let firstWords = 0;
  let lastWords = 0;
  let reserved = 0;
  while (c.pos < end) {
    const tag = c.varint();
    switch (tag) {
      case 10:
        query = c.unique();
        break;
      case 18:
        error = c.unique();
        break;
      case 24:
        countryAt = c.varint();
        break;
      case 32:
        placeAt = c.varint();
        break;
      case 40:
        operatorAt = c.varint();
        break;
      case 48:
        zoneAt = c.varint();
        break;
      case 58:
        firstWords = c.addressWords(first);
        break;
      case 66:
        lastWords = c.addressWords(last);
        break;
      case 72:
        reserved = c.varint();
        break;
      default:
        c.skip(tag & 7);
    }
  }
  if (error !== '') return { query, info: undefined, error };
  if (firstWords === 0 || firstWords !== lastWords) throw new DecodeError('item without a range');

  const country = part(parts.countries, countryAt, 'country');
  const place = part(parts.places, placeAt, 'place');
  const operator = part(parts.operators, operatorAt, 'operator');
  const zone = part(parts.zones, zoneAt, 'time zone');
  // Same property order as the generated createBaseIpInfo, so both produce one object shape.
  const info: IpInfo = {
    ip: query,
    countryCode: country?.countryCode,
    countryName: country?.countryName,
    countryCapital: country?.countryCapital,
    regionName: place?.regionName,
    cityName: place?.cityName,
    latitude: place?.latitude,
    longitude: place?.longitude,
    zipCode: place?.zipCode,
    isEu: country?.isEu,
    callingCode: country?.callingCode,
    countryFlag: country?.countryFlag,
    weatherStationCode: place?.weatherStationCode,
    weatherStationName: place?.weatherStationName,
    elevation: place?.elevation,
    asn: operator?.asn,
    timeZone: zone,
    currency: country?.currency,
    isProxy: operator?.isProxy ?? false,
    proxyData: operator?.proxyData,
    startIp: '',
    endIp: '',
    networks: [],
    // An address with a record names all three parts; its Chinese names come from all three.
    zh:
      operator === undefined
        ? undefined
        : { country: country?.zh?.country, province: place?.zh?.province, city: place?.zh?.city, isp: operator.zh?.isp },
    reserved,
  };
  if (firstWords === 1) texts.add(info, first[0] as number, last[0] as number);
  else {
    info.startIp = formatIpv6(first);
    info.endIp = formatIpv6(last);
    info.networks = ipv6RangeToCidrs(wordsToBigInt(first), wordsToBigInt(last));
  }
  return { query, info, error: undefined };
}
