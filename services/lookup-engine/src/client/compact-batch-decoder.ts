import { forEachIpv4Cidr, formatIpv4, formatIpv6, ipv4RangeToCidrs, ipv6RangeToCidrs, wordsToBigInt } from '@ipdata/common/ip';
import type { BatchLookupItem, BatchLookupResponse, IpInfo, ReservedReason, TimeZone } from '@ipdata/proto/lookup/v1/lookup';
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

/**
 * One answer of a BatchLookupCompactResponse as sent: 1-based positions of its parts in the
 * batch's lists (0 = none; checked against the lists when decoded) and its range.
 */
export interface CompactAnswer {
  query: string;
  /** Why this item failed; when set, nothing else is. */
  error: string;
  country: number;
  place: number;
  operator: number;
  zone: number;
  /** First and last address of an IPv4 range as unsigned integers; -1 for an IPv6 range. */
  firstV4: number;
  lastV4: number;
  /** start_ip, end_ip and networks of an IPv6 range (IPv4 ones are made from the integers). */
  ipv6: { startIp: string; endIp: string; networks: string[] } | undefined;
  reserved: ReservedReason;
}

export type CompactPartKind = 'countries' | 'places' | 'operators';

/**
 * A BatchLookupCompactResponse decoded as it travels: one CompactAnswer per requested address,
 * in request order, and the shared parts, each decoded on first use. For consumers that render
 * answers from their parts (bff-en's batch JSON makes each part's JSON once and keeps it across
 * batches by `key`, so most parts are never decoded); compactBatchItems turns it into the
 * BatchLookupResponse items BatchLookup answers.
 */
export interface CompactBatch {
  answers: CompactAnswer[];
  zones: TimeZone[];
  /** How many parts of a kind the response carries (answers name them 1..count). */
  count(kind: CompactPartKind): number;
  /** A part by its 1-based position, decoded on first use; DecodeError when its bytes are malformed. */
  part(kind: CompactPartKind, position: number): IpInfo;
  /**
   * The numbering the part ids belong to (one engine process serving one dataset); '' when the
   * engine sent none.
   */
  partsEpoch: string;
  /**
   * A part's number by its 1-based position, -1 when the engine sent none: equal ids under one
   * partsEpoch are equal parts, across responses. A cache key for what a consumer makes from a
   * part (time zones carry the response's time, so they have none).
   */
  partId(kind: CompactPartKind, position: number): number;
}

/** Where each part of a kind lies in the response: [start, end) per part. */
type Spans = Record<CompactPartKind, number[]>;

class DecodedCompactBatch implements CompactBatch {
  answers: CompactAnswer[] = [];
  readonly zones: TimeZone[] = [];
  readonly spans: Spans = { countries: [], places: [], operators: [] };
  ids: Record<CompactPartKind, number[]> = { countries: [], places: [], operators: [] };
  partsEpoch = '';
  private readonly decoded: Record<CompactPartKind, Array<IpInfo | undefined>> = { countries: [], places: [], operators: [] };
  private cursor: WireCursor | undefined;

  constructor(private readonly bytes: Uint8Array) {}

  count(kind: CompactPartKind): number {
    return this.spans[kind].length / 2;
  }

  part(kind: CompactPartKind, position: number): IpInfo {
    let info = this.decoded[kind][position - 1];
    if (info === undefined) {
      const c = this.at(kind, position);
      info = decodeIpInfo(c, this.spans[kind][2 * position - 1] as number);
      this.decoded[kind][position - 1] = info;
    }
    return info;
  }

  partId(kind: CompactPartKind, position: number): number {
    return this.ids[kind][position - 1] ?? -1;
  }

  private at(kind: CompactPartKind, position: number): WireCursor {
    const start = this.spans[kind][2 * (position - 1)];
    if (start === undefined || position < 1) throw new RangeError(`no ${kind} part ${position} of ${this.count(kind)}`);
    if (this.cursor === undefined) {
      this.cursor = new WireCursor();
      this.cursor.reset(this.bytes);
    }
    this.cursor.pos = start;
    return this.cursor;
  }
}

export function decodeBatchLookupCompactResponse(bytes: Uint8Array): BatchLookupResponse {
  return { items: compactBatchItems(decodeCompactBatch(bytes)) };
}

export function decodeCompactBatch(bytes: Uint8Array): CompactBatch {
  const c = cursor;
  c.reset(bytes);
  const batch = new DecodedCompactBatch(bytes);
  const spans = batch.spans;
  // Items are read after the whole response: the engine sends parts before the items that name
  // them, but protobuf allows any order.
  const bounds: number[] = [];
  while (c.pos < c.end) {
    const tag = c.varint();
    switch (tag) {
      case 10:
      case 18:
      case 26: {
        const end = c.limit();
        spans[tag === 10 ? 'countries' : tag === 18 ? 'places' : 'operators'].push(c.pos, end);
        c.pos = end;
        break;
      }
      case 34:
        batch.zones.push(decodeTimeZone(c, c.limit()));
        break;
      case 42: {
        const end = c.limit();
        bounds.push(c.pos, end);
        c.pos = end;
        break;
      }
      case 50:
        batch.partsEpoch = c.text();
        break;
      case 58:
      case 66:
      case 74: {
        const ids = batch.ids[tag === 58 ? 'countries' : tag === 66 ? 'places' : 'operators'];
        const end = c.limit();
        while (c.pos < end) ids.push(c.varint());
        break;
      }
      // The same ids unpacked (a parser must accept both forms).
      case 56:
      case 64:
      case 72:
        batch.ids[tag === 56 ? 'countries' : tag === 64 ? 'places' : 'operators'].push(c.varint());
        break;
      default:
        c.skip(tag & 7);
    }
  }
  // Ids that do not name every part of their list name none (partId answers -1).
  for (const kind of ['countries', 'places', 'operators'] as const) {
    if (batch.ids[kind].length !== batch.count(kind)) batch.ids[kind] = [];
  }
  const answers = new Array<CompactAnswer>(bounds.length / 2);
  for (let i = 0; i < answers.length; i++) {
    c.pos = bounds[2 * i] as number;
    answers[i] = decodeAnswer(c, bounds[2 * i + 1] as number, batch);
  }
  batch.answers = answers;
  return batch;
}

/** The BatchLookupResponse items of a compact batch: what BatchLookup answers for the same request. */
export function compactBatchItems(batch: CompactBatch): BatchLookupItem[] {
  const items = new Array<BatchLookupItem>(batch.answers.length);
  const texts = new Ipv4Texts();
  for (let i = 0; i < items.length; i++) {
    const answer = batch.answers[i] as CompactAnswer;
    if (answer.error !== '') {
      items[i] = { query: answer.query, info: undefined, error: answer.error };
      continue;
    }
    const info = partsInfo(batch, answer);
    if (answer.ipv6 === undefined) texts.add(info, answer.firstV4, answer.lastV4);
    else Object.assign(info, answer.ipv6);
    items[i] = { query: answer.query, info, error: undefined };
  }
  texts.fill();
  return items;
}

/** The IpInfo of one answer (not an error) of a compact batch. */
export function compactAnswerInfo(batch: CompactBatch, answer: CompactAnswer): IpInfo {
  const info = partsInfo(batch, answer);
  if (answer.ipv6 !== undefined) return Object.assign(info, answer.ipv6);
  info.startIp = formatIpv4(answer.firstV4);
  info.endIp = formatIpv4(answer.lastV4);
  info.networks = ipv4RangeToCidrs(answer.firstV4, answer.lastV4);
  return info;
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

function checkPart(count: number, position: number, what: string): number {
  if (position > count) throw new DecodeError(`item names ${what} ${position} of ${count}`);
  return position;
}

function decodeAnswer(c: WireCursor, end: number, batch: CompactBatch): CompactAnswer {
  let query = '';
  let error = '';
  let country = 0;
  let place = 0;
  let operator = 0;
  let zone = 0;
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
        country = c.varint();
        break;
      case 32:
        place = c.varint();
        break;
      case 40:
        operator = c.varint();
        break;
      case 48:
        zone = c.varint();
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
  const answer: CompactAnswer = {
    query,
    error,
    country: 0,
    place: 0,
    operator: 0,
    zone: 0,
    firstV4: -1,
    lastV4: -1,
    ipv6: undefined,
    reserved,
  };
  if (error !== '') return answer;
  if (firstWords === 0 || firstWords !== lastWords) throw new DecodeError('item without a range');
  answer.country = checkPart(batch.count('countries'), country, 'country');
  answer.place = checkPart(batch.count('places'), place, 'place');
  answer.operator = checkPart(batch.count('operators'), operator, 'operator');
  answer.zone = checkPart(batch.zones.length, zone, 'time zone');
  if (firstWords === 1) {
    answer.firstV4 = first[0] as number;
    answer.lastV4 = last[0] as number;
  } else {
    answer.ipv6 = {
      startIp: formatIpv6(first),
      endIp: formatIpv6(last),
      networks: ipv6RangeToCidrs(wordsToBigInt(first), wordsToBigInt(last)),
    };
  }
  return answer;
}

/** An answer's IpInfo from its parts, without its range (start_ip, end_ip, networks empty). */
function partsInfo(batch: CompactBatch, answer: CompactAnswer): IpInfo {
  const country = answer.country === 0 ? undefined : batch.part('countries', answer.country);
  const place = answer.place === 0 ? undefined : batch.part('places', answer.place);
  const operator = answer.operator === 0 ? undefined : batch.part('operators', answer.operator);
  const zone = answer.zone === 0 ? undefined : batch.zones[answer.zone - 1];
  // Same property order as the generated createBaseIpInfo, so both produce one object shape.
  return {
    ip: answer.query,
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
    reserved: answer.reserved,
  };
}
