import { ipv4PrefixContaining, parseIpv4 } from '@ipdata/common/ip';
import { compactAnswerInfo, type CompactAnswer, type CompactBatch, type CompactPartKind } from '@ipdata/lookup-engine/client';
import { IpInfo, ReservedReason, type TimeZone } from '@ipdata/proto/lookup/v1/lookup';
import type { BatchItem } from '../batch-lookup.js';
import { ipInfoView, type IpInfoView } from './ip-info.view.js';
import {
  asnSegmentJson,
  countryHeadJson,
  countryMidJson,
  currencySegmentJson,
  ipInfoJson,
  placeHeadJson,
  placeTailJson,
  proxySegmentJson,
  zoneSegmentJson,
} from './json-output.js';
import { PartJsonCache, PartKeys } from './part-json-cache.js';
import { Utf8Body } from './utf8-body.js';

/** About one full answer's JSON (~810 bytes): the body's first allocation, so it rarely grows. */
const ITEM_BYTES = 900;

type Segment = (view: IpInfoView, source: IpInfo) => string;

/** About 250 bytes of JSON per entry: a few MiB per kind when full. */
const PART_CACHE_GENERATION = 25_000;
const caches = {
  countries: new PartJsonCache<Buffer[]>(PART_CACHE_GENERATION),
  places: new PartJsonCache<Buffer[]>(PART_CACHE_GENERATION),
  operators: new PartJsonCache<Buffer[]>(PART_CACHE_GENERATION),
};
const partKeys = new PartKeys(Object.values(caches));

/**
 * The JSON segments of one kind of part (json-output.ts), made once per batch for each part an
 * answer names, or taken from the cache when an earlier batch made them; every answer that names
 * the part copies them into place.
 */
class PartSegments {
  /** Per part position (0: "no such part"): its segments as UTF-8. */
  private readonly made: Array<Buffer[] | undefined>;

  constructor(
    private readonly batch: CompactBatch,
    /** The batch's epoch slot (PartKeys). */
    private readonly slot: number,
    private readonly kind: CompactPartKind,
    private readonly segments: readonly Segment[],
    private readonly cache: PartJsonCache<Buffer[]>,
  ) {
    this.made = new Array<Buffer[] | undefined>(batch.count(kind) + 1);
  }

  /** The segments of the part at `position`. */
  of(position: number): Buffer[] {
    return this.made[position] ?? this.make(position);
  }

  /** The cache key of the part at `position` (-1: none, not to be cached). */
  private keyOf(position: number): number {
    return position === 0 ? -1 : PartKeys.keyOf(this.slot, this.batch.partId(this.kind, position));
  }

  private make(position: number): Buffer[] {
    let made: Buffer[];
    if (position === 0) made = segmentsOf(NO_PART, this.segments);
    else {
      const key = this.keyOf(position);
      const make = () => segmentsOf(this.batch.part(this.kind, position), this.segments);
      made = key < 0 ? make() : this.cache.get(key, make);
    }
    this.made[position] = made;
    return made;
  }
}

function segmentsOf(source: IpInfo, segments: readonly Segment[]): Buffer[] {
  const view = ipInfoView(source);
  return segments.map((segment) => Buffer.from(segment(view, source), 'utf8'));
}

// The answer's own fields around its address and range, as rangeTailJson and ipHeadJson write them.
const ascii = (text: string) => Buffer.from(text, 'latin1');
const IP_HEAD = ascii('{"ip":"');
/** The separator and the next answer's head in one copy. */
const NEXT_IP_HEAD = ascii(',{"ip":"');
const END_IP = ascii('","end_ip":"');
const NETWORK = ascii('","network":"');
const ANSWER_END = ascii('","reserved":null}');
const NO_NETWORK = ascii('","network":null,"reserved":null}');
const COMMA = ascii(',');

/** An IpInfo with none of a part's fields: what an answer that names no such part reads. */
const NO_PART = IpInfo.fromPartial({});
const NO_ZONE = segmentsOf(NO_PART, [zoneSegmentJson])[0] as Buffer;

/**
 * Time-zone segments by name, offset and current time. The time moves once a second, so
 * the ~100 batches of a second share them: made per batch, they were ~5% of bff-en's main
 * thread under batch load (~90 zones a batch). Bounded: cleared when full.
 */
const zoneSegments = new Map<string, Buffer>();
const ZONE_SEGMENTS_MAX = 4_096;

function zoneSegment(timeZone: TimeZone): Buffer {
  // Lengths first: no two different zones share a key, whatever their text.
  const key = `${timeZone.currentTime.length} ${timeZone.offset.length} ${timeZone.currentTime}${timeZone.offset}${timeZone.name}`;
  let segment = zoneSegments.get(key);
  if (segment === undefined) {
    if (zoneSegments.size >= ZONE_SEGMENTS_MAX) zoneSegments.clear();
    const source = IpInfo.fromPartial({ timeZone });
    segment = Buffer.from(zoneSegmentJson(ipInfoView(source), source), 'utf8');
    zoneSegments.set(key, segment);
  }
  return segment;
}

/**
 * The full-field JSON of a compact batch's answers, each the bytes ipInfoJson(ipInfoView(info))
 * gives for the answer's IpInfo (a property test holds them equal): the answer's own address
 * and range written as ASCII bytes (a canonical IPv4 query is the text of its value: the parser
 * refuses any other spelling), and its parts' segments copied into place (country 3 segments, place 2, operator 2,
 * time zone 1; PartSegments). Answers the shortcut does not cover (IPv6, an echo that is not a plain IPv4
 * address, a reserved reason) go the general way.
 */
class CompactBatchJson {
  private readonly countries: PartSegments;
  private readonly places: PartSegments;
  private readonly operators: PartSegments;
  /** Per zone position (0: none): its segment (zoneSegment). */
  private readonly zones: Buffer[];

  constructor(readonly batch: CompactBatch) {
    const slot = partKeys.slotOf(batch.partsEpoch);
    // The text that always precedes the country's head (the end of the address) and always
    // follows the proxy fields (start_ip's label) is part of those segments: fewer copies per answer.
    this.countries = new PartSegments(
      batch,
      slot,
      'countries',
      [(view) => `",${countryHeadJson(view)}`, countryMidJson, currencySegmentJson],
      caches.countries,
    );
    this.places = new PartSegments(batch, slot, 'places', [placeHeadJson, placeTailJson], caches.places);
    this.operators = new PartSegments(
      batch,
      slot,
      'operators',
      [asnSegmentJson, (view, source) => `${proxySegmentJson(view, source)}"start_ip":"`],
      caches.operators,
    );
    this.zones = [NO_ZONE, ...batch.zones.map(zoneSegment)];
  }

  /** Writes the answer, after a comma unless it is the body's first. */
  write(body: Utf8Body, answer: CompactAnswer, first: boolean): void {
    const address =
      answer.ipv6 === undefined && answer.reserved === ReservedReason.RESERVED_REASON_UNSPECIFIED ? parseIpv4(answer.query) : -1;
    if (address < 0) {
      const info = compactAnswerInfo(this.batch, answer);
      if (!first) body.appendBytes(COMMA);
      body.append(ipInfoJson(ipInfoView(info), info));
      return;
    }
    const country = this.countries.of(answer.country);
    const place = this.places.of(answer.place);
    const operator = this.operators.of(answer.operator);
    body.appendBytes(first ? IP_HEAD : NEXT_IP_HEAD).appendIpv4(address);
    body.appendBytes(country[0] as Buffer).appendBytes(place[0] as Buffer);
    body.appendBytes(country[1] as Buffer).appendBytes(place[1] as Buffer);
    body.appendBytes(operator[0] as Buffer).appendBytes(this.zones[answer.zone] as Buffer);
    body.appendBytes(country[2] as Buffer).appendBytes(operator[1] as Buffer);
    body.appendIpv4(answer.firstV4).appendBytes(END_IP).appendIpv4(answer.lastV4);
    const prefix = ipv4PrefixContaining(answer.firstV4, answer.lastV4, address);
    if (prefix < 0) {
      body.appendBytes(NO_NETWORK);
      return;
    }
    // The network is the address with its host bits cleared (`>>> 32` would shift by 0: /0 is its own case).
    const network = prefix === 0 ? 0 : ((address >>> (32 - prefix)) << (32 - prefix)) >>> 0;
    body.appendBytes(NETWORK).appendIpv4(network, prefix).appendBytes(ANSWER_END);
  }
}

/**
 * The JSON body of POST /v1/batch with every field (the common case, and the batch's largest
 * cost): the engine's answers through CompactBatchJson (each part's JSON made once, and kept
 * across batches),
 * others through the specialised serialiser (same bytes as JSON.stringify), encoded once into
 * the body's bytes (utf8-body.ts). Error items are written by `errorJson`.
 */
export function batchJsonBody(
  items: readonly BatchItem[],
  errorJson: (item: Extract<BatchItem, { code: string }>) => string,
): Buffer {
  const body = new Utf8Body(items.length * ITEM_BYTES).append('[');
  let compact: CompactBatchJson | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as BatchItem;
    if ('at' in item) {
      if (compact?.batch !== item.batch) compact = new CompactBatchJson(item.batch);
      compact.write(body, item.batch.answers[item.at] as CompactAnswer, i === 0);
      continue;
    }
    if (i > 0) body.appendBytes(COMMA);
    if ('info' in item) body.append(ipInfoJson(ipInfoView(item.info), item.info));
    else body.append(errorJson(item));
  }
  return body.append(']').bytes();
}
