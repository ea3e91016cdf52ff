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

/** An answer's form (CompactColumns.form). */
export const ANSWER_IPV4 = 0;
export const ANSWER_IPV6 = 1;
/** The engine answered the item with an error (CompactBatch.error); its other columns are 0. */
export const ANSWER_ERROR = 2;

/**
 * The answers of a BatchLookupCompactResponse as sent, a typed array per field, index = the
 * answer's position in the request: no object per answer. An object per answer (with two heap
 * numbers for its range and a string for its query) was ~330 KB of garbage per 1,000 answers,
 * half of what bff-en allocated per POST /v1/batch, and it lived across the batch's quota
 * reservation into each young-generation collection.
 */
export interface CompactColumns {
  /** ANSWER_IPV4, ANSWER_IPV6 or ANSWER_ERROR. */
  form: Uint8Array;
  /** 1-based positions of the answer's parts in the batch's lists (0 = none; checked when decoded). */
  country: Int32Array;
  place: Int32Array;
  operator: Int32Array;
  zone: Int32Array;
  /** First and last address of an IPv4 range as unsigned integers (0 for the other forms). */
  firstV4: Uint32Array;
  lastV4: Uint32Array;
  /** ReservedReason. */
  reserved: Int32Array;
}

/** start_ip, end_ip and networks of an IPv6 range (IPv4 ones are made from the integers). */
export interface Ipv6Range {
  startIp: string;
  endIp: string;
  networks: string[];
}

export type CompactPartKind = 'countries' | 'places' | 'operators';

/**
 * A BatchLookupCompactResponse decoded as it travels: its answers in request order (columns, the
 * queries, and the rare errors and IPv6 ranges by index), and the shared parts, each decoded on
 * first use. For consumers that render answers from their parts (bff-en's batch JSON makes each
 * part's JSON once and keeps it across batches by `key`, so most parts are never decoded);
 * compactBatchItems turns it into the BatchLookupResponse items BatchLookup answers.
 */
export interface CompactBatch {
  /** How many answers: one per requested address. */
  readonly length: number;
  /** Each answer's input exactly as sent. */
  readonly queries: readonly string[];
  readonly columns: CompactColumns;
  /** Why answer `i` failed; '' unless its form is ANSWER_ERROR. */
  error(i: number): string;
  /** The range of answer `i` when its form is ANSWER_IPV6. */
  ipv6Range(i: number): Ipv6Range | undefined;
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
  queries: string[] = [];
  columns = NO_ANSWERS;
  readonly errors = new Map<number, string>();
  readonly ipv6Ranges = new Map<number, Ipv6Range>();
  readonly zones: TimeZone[] = [];
  readonly spans: Spans = { countries: [], places: [], operators: [] };
  ids: Record<CompactPartKind, number[]> = { countries: [], places: [], operators: [] };
  partsEpoch = '';
  private readonly decoded: Record<CompactPartKind, Array<IpInfo | undefined>> = { countries: [], places: [], operators: [] };
  private cursor: WireCursor | undefined;

  constructor(private readonly bytes: Uint8Array) {}

  get length(): number {
    return this.queries.length;
  }

  error(i: number): string {
    return this.errors.get(i) ?? '';
  }

  ipv6Range(i: number): Ipv6Range | undefined {
    return this.ipv6Ranges.get(i);
  }

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
  let items = 0;
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
        if (2 * items + 2 > bounds.length) bounds = grownBounds(bounds);
        bounds[2 * items] = c.pos;
        bounds[2 * items + 1] = end;
        items++;
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
  batch.columns = answerColumns(items);
  batch.queries = new Array<string>(items);
  for (let i = 0; i < items; i++) {
    c.pos = bounds[2 * i] as number;
    decodeAnswer(c, bounds[2 * i + 1] as number, batch, i);
  }
  return batch;
}

/** Item bounds of the response being decoded ([start, end) per item), reused: one decode at a time. */
let bounds: Int32Array = new Int32Array(2 * 1024);

function grownBounds(from: Int32Array): Int32Array {
  const grown = new Int32Array(2 * from.length);
  grown.set(from);
  return grown;
}

/** Columns for `count` answers: seven 32-bit columns, then the form bytes, in one backing store. */
function answerColumns(count: number): CompactColumns {
  const buffer = new ArrayBuffer(count * (7 * 4 + 1));
  const int32 = (column: number) => new Int32Array(buffer, column * 4 * count, count);
  const uint32 = (column: number) => new Uint32Array(buffer, column * 4 * count, count);
  return {
    country: int32(0),
    place: int32(1),
    operator: int32(2),
    zone: int32(3),
    firstV4: uint32(4),
    lastV4: uint32(5),
    reserved: int32(6),
    form: new Uint8Array(buffer, 7 * 4 * count, count),
  };
}

const NO_ANSWERS = answerColumns(0);

/** The BatchLookupResponse items of a compact batch: what BatchLookup answers for the same request. */
export function compactBatchItems(batch: CompactBatch): BatchLookupItem[] {
  const items = new Array<BatchLookupItem>(batch.length);
  const { form, firstV4, lastV4 } = batch.columns;
  const texts = new Ipv4Texts();
  for (let i = 0; i < items.length; i++) {
    const query = batch.queries[i] as string;
    if (form[i] === ANSWER_ERROR) {
      items[i] = { query, info: undefined, error: batch.error(i) };
      continue;
    }
    const info = partsInfo(batch, i);
    if (form[i] === ANSWER_IPV4) texts.add(info, firstV4[i] as number, lastV4[i] as number);
    else Object.assign(info, batch.ipv6Range(i));
    items[i] = { query, info, error: undefined };
  }
  texts.fill();
  return items;
}

/** The IpInfo of answer `i` (not an error) of a compact batch. */
export function compactAnswerInfo(batch: CompactBatch, i: number): IpInfo {
  const info = partsInfo(batch, i);
  if (batch.columns.form[i] === ANSWER_IPV6) return Object.assign(info, batch.ipv6Range(i));
  const first = batch.columns.firstV4[i] as number;
  const last = batch.columns.lastV4[i] as number;
  info.startIp = formatIpv4(first);
  info.endIp = formatIpv4(last);
  info.networks = ipv4RangeToCidrs(first, last);
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

/** Answer `i` into the batch's columns (and its query, error or IPv6 range). */
function decodeAnswer(c: WireCursor, end: number, batch: DecodedCompactBatch, i: number): void {
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
  batch.queries[i] = query;
  const columns = batch.columns;
  if (error !== '') {
    columns.form[i] = ANSWER_ERROR;
    batch.errors.set(i, error);
    return;
  }
  if (firstWords === 0 || firstWords !== lastWords) throw new DecodeError('item without a range');
  columns.country[i] = checkPart(batch.count('countries'), country, 'country');
  columns.place[i] = checkPart(batch.count('places'), place, 'place');
  columns.operator[i] = checkPart(batch.count('operators'), operator, 'operator');
  columns.zone[i] = checkPart(batch.zones.length, zone, 'time zone');
  columns.reserved[i] = reserved;
  if (firstWords === 1) {
    columns.form[i] = ANSWER_IPV4;
    columns.firstV4[i] = first[0] as number;
    columns.lastV4[i] = last[0] as number;
  } else {
    columns.form[i] = ANSWER_IPV6;
    batch.ipv6Ranges.set(i, {
      startIp: formatIpv6(first),
      endIp: formatIpv6(last),
      networks: ipv6RangeToCidrs(wordsToBigInt(first), wordsToBigInt(last)),
    });
  }
}

/** The part at a 1-based position; undefined for 0 (the answer names none). */
function partAt(batch: CompactBatch, kind: CompactPartKind, position: number): IpInfo | undefined {
  return position === 0 ? undefined : batch.part(kind, position);
}

/** An answer's IpInfo from its parts, without its range (start_ip, end_ip, networks empty). */
function partsInfo(batch: CompactBatch, i: number): IpInfo {
  const columns = batch.columns;
  const country = partAt(batch, 'countries', columns.country[i] as number);
  const place = partAt(batch, 'places', columns.place[i] as number);
  const operator = partAt(batch, 'operators', columns.operator[i] as number);
  const zonePosition = columns.zone[i] as number;
  const zone = zonePosition === 0 ? undefined : batch.zones[zonePosition - 1];
  // Same property order as the generated createBaseIpInfo, so both produce one object shape.
  return {
    ip: batch.queries[i] as string,
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
    reserved: columns.reserved[i] as ReservedReason,
  };
}
