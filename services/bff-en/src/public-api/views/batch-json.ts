import { ipv4PrefixContaining, parseIpv4 } from '@ipdata/common/ip';
import {
  ANSWER_ERROR,
  ANSWER_IPV4,
  compactAnswerInfo,
  type CompactBatch,
  type CompactPartKind,
} from '@ipdata/lookup-engine/client';
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
import { PartKeys } from './part-keys.js';
import { IPV4_TEXT_MAX, SegmentSpace, segmentLength, segmentsStart } from './segment-space.js';

type Segment = (view: IpInfoView, source: IpInfo) => string;

/**
 * ~250 bytes of JSON per part: a 16 MiB generation holds ~60,000 parts (the Buffer cache before it
 * kept 25,000 per kind). A batch of 1,000 answers names ~1,200 parts; 4 MiB is its reserve (~3,000
 * new parts of up to ~1.3 KB) and the body's range (~850 KB a batch; a larger body is copied out
 * in pieces).
 */
const space = new SegmentSpace(16 << 20, 4 << 20, 4 << 20);
const partKeys = new PartKeys([space]);

/**
 * The JSON segments of one kind of part (json-output.ts) as entries of the segment space, found
 * once per batch for each part an answer names: cached by an earlier batch, or made now.
 */
class PartSegments {
  /** Per part position: its entry's offset + 1 (0: not looked up yet). */
  private readonly made: Int32Array;

  constructor(
    private readonly batch: CompactBatch,
    /** The batch's epoch slot (PartKeys). */
    private readonly slot: number,
    private readonly kind: CompactPartKind,
    private readonly segments: readonly Segment[],
    /** The entry of "no such part" (position 0). */
    private readonly none: number,
  ) {
    this.made = new Int32Array(batch.count(kind) + 1);
  }

  /** The entry of the part at `position`; -1 when it has none (segments too long for the space). */
  of(position: number): number {
    if (position === 0) return this.none;
    const made = this.made[position] as number;
    return made !== 0 ? made - 1 : this.make(position);
  }

  private make(position: number): number {
    const key = PartKeys.keyOf(this.slot, this.batch.partId(this.kind, position));
    let at = space.cached(key);
    if (at < 0) at = space.store(key, segmentsOf(this.batch.part(this.kind, position), this.segments));
    this.made[position] = at + 1;
    return at;
  }
}

function segmentsOf(source: IpInfo, segments: readonly Segment[]): Buffer[] {
  const view = ipInfoView(source);
  return segments.map((segment) => Buffer.from(segment(view, source), 'utf8'));
}

/** An IpInfo with none of a part's fields: what an answer that names no such part reads. */
const NO_PART = IpInfo.fromPartial({});
const NO_ZONE = segmentsOf(NO_PART, [zoneSegmentJson])[0] as Buffer;

/**
 * Each kind's segments. The text that always precedes the country's head (the end of the
 * address) and always follows the proxy fields (start_ip's label) is part of those segments:
 * fewer copies per answer.
 */
const COUNTRY_SEGMENTS: readonly Segment[] = [(view) => `",${countryHeadJson(view)}`, countryMidJson, currencySegmentJson];
const PLACE_SEGMENTS: readonly Segment[] = [placeHeadJson, placeTailJson];
const OPERATOR_SEGMENTS: readonly Segment[] = [asnSegmentJson, (view, source) => `${proxySegmentJson(view, source)}"start_ip":"`];
const NO_COUNTRY = space.constantEntry(segmentsOf(NO_PART, COUNTRY_SEGMENTS));
const NO_PLACE = space.constantEntry(segmentsOf(NO_PART, PLACE_SEGMENTS));
const NO_OPERATOR = space.constantEntry(segmentsOf(NO_PART, OPERATOR_SEGMENTS));

/**
 * Time-zone segments by name, each with the offset and current time it was made for. The time
 * moves once a second, so the ~100 batches of a second share them: made per batch, they were
 * ~5% of bff-en's main thread under batch load (~90 zones a batch). Found by name and the two
 * strings compared, not by a key built per zone (~22 KB of garbage a batch). Bounded: cleared
 * when full.
 */
const zoneSegments = new Map<string, { offset: string; currentTime: string; segment: Buffer }>();
const ZONE_SEGMENTS_MAX = 4_096;

function zoneSegment(timeZone: TimeZone): Buffer {
  const made = zoneSegments.get(timeZone.name);
  if (made !== undefined && made.currentTime === timeZone.currentTime && made.offset === timeZone.offset) return made.segment;
  if (made === undefined && zoneSegments.size >= ZONE_SEGMENTS_MAX) zoneSegments.clear();
  const source = IpInfo.fromPartial({ timeZone });
  const segment = Buffer.from(zoneSegmentJson(ipInfoView(source), source), 'utf8');
  zoneSegments.set(timeZone.name, { offset: timeZone.offset, currentTime: timeZone.currentTime, segment });
  return segment;
}

// The answer's own fields around its address and range, as rangeTailJson and ipHeadJson write them.
const constant = (text: string): [number, number] => [space.constant(Buffer.from(text, 'latin1')), text.length];
const [IP_HEAD, IP_HEAD_LENGTH] = constant('{"ip":"');
/** The separator and the next answer's head in one copy. */
const [NEXT_IP_HEAD, NEXT_IP_HEAD_LENGTH] = constant(',{"ip":"');
const [END_IP, END_IP_LENGTH] = constant('","end_ip":"');
const [NETWORK, NETWORK_LENGTH] = constant('","network":"');
const [ANSWER_END, ANSWER_END_LENGTH] = constant('","reserved":null}');
const [NO_NETWORK, NO_NETWORK_LENGTH] = constant('","network":null,"reserved":null}');
/** The answer's fixed bytes at most, with its four addresses. */
const ANSWER_OWN_BYTES =
  NEXT_IP_HEAD_LENGTH + END_IP_LENGTH + NO_NETWORK_LENGTH + NETWORK_LENGTH + ANSWER_END_LENGTH + 4 * IPV4_TEXT_MAX;

/**
 * The full-field JSON of a compact batch's answers, each the bytes ipInfoJson(ipInfoView(info))
 * gives for the answer's IpInfo (a property test holds them equal): the answer's own address
 * and range written as ASCII bytes (a canonical IPv4 query is the text of its value: the parser
 * refuses any other spelling), and its parts' segments copied into place (country 3 segments, place 2, operator 2,
 * time zone 1; PartSegments). Answers the shortcut does not cover (IPv6, an echo that is not a plain IPv4
 * address, a reserved reason, a part too large for the space) go the general way.
 */
class CompactBatchJson {
  private readonly countries: PartSegments;
  private readonly places: PartSegments;
  private readonly operators: PartSegments;
  /** Per zone position (0: none): its segment (zoneSegment). */
  private readonly zones: Buffer[];

  constructor(readonly batch: CompactBatch) {
    const slot = partKeys.slotOf(batch.partsEpoch);
    space.beginBatch();
    this.countries = new PartSegments(batch, slot, 'countries', COUNTRY_SEGMENTS, NO_COUNTRY);
    this.places = new PartSegments(batch, slot, 'places', PLACE_SEGMENTS, NO_PLACE);
    this.operators = new PartSegments(batch, slot, 'operators', OPERATOR_SEGMENTS, NO_OPERATOR);
    this.zones = [NO_ZONE, ...batch.zones.map(zoneSegment)];
  }

  /** Writes answer `at` of the batch, after a comma unless it is the body's first. */
  write(at: number, first: boolean): void {
    const columns = this.batch.columns;
    const address =
      columns.form[at] === ANSWER_IPV4 && columns.reserved[at] === ReservedReason.RESERVED_REASON_UNSPECIFIED
        ? parseIpv4(this.batch.queries[at] as string)
        : -1;
    const country = address < 0 ? -1 : this.countries.of(columns.country[at] as number);
    const place = country < 0 ? -1 : this.places.of(columns.place[at] as number);
    const operator = place < 0 ? -1 : this.operators.of(columns.operator[at] as number);
    if (operator < 0) {
      const info = compactAnswerInfo(this.batch, at);
      space.append(first ? ipInfoJson(ipInfoView(info), info) : `,${ipInfoJson(ipInfoView(info), info)}`);
      return;
    }
    const b = space.bytes;
    const c0 = segmentsStart(b, country);
    const c0n = segmentLength(b, country, 0);
    const c1n = segmentLength(b, country, 1);
    const c2n = segmentLength(b, country, 2);
    const p0 = segmentsStart(b, place);
    const p0n = segmentLength(b, place, 0);
    const p1n = segmentLength(b, place, 1);
    const o0 = segmentsStart(b, operator);
    const o0n = segmentLength(b, operator, 0);
    const o1n = segmentLength(b, operator, 1);
    const zone = this.zones[columns.zone[at] as number] as Buffer;
    space.reserve(ANSWER_OWN_BYTES + c0n + c1n + c2n + p0n + p1n + o0n + o1n + zone.length);
    if (first) space.copy(IP_HEAD, IP_HEAD_LENGTH);
    else space.copy(NEXT_IP_HEAD, NEXT_IP_HEAD_LENGTH);
    space.appendIpv4(address);
    space.copy(c0, c0n);
    space.copy(p0, p0n);
    space.copy(c0 + c0n, c1n);
    space.copy(p0 + p0n, p1n);
    space.copy(o0, o0n);
    space.copyIn(zone);
    space.copy(c0 + c0n + c1n, c2n);
    space.copy(o0 + o0n, o1n);
    const firstV4 = columns.firstV4[at] as number;
    const lastV4 = columns.lastV4[at] as number;
    space.appendIpv4(firstV4);
    space.copy(END_IP, END_IP_LENGTH);
    space.appendIpv4(lastV4);
    const prefix = ipv4PrefixContaining(firstV4, lastV4, address);
    if (prefix < 0) {
      space.copy(NO_NETWORK, NO_NETWORK_LENGTH);
      return;
    }
    // The network is the address with its host bits cleared (`>>> 32` would shift by 0: /0 is its own case).
    const network = prefix === 0 ? 0 : ((address >>> (32 - prefix)) << (32 - prefix)) >>> 0;
    space.copy(NETWORK, NETWORK_LENGTH);
    space.appendIpv4(network, prefix);
    space.copy(ANSWER_END, ANSWER_END_LENGTH);
  }
}

/**
 * The JSON body of POST /v1/batch with every field (the common case, and the batch's largest
 * cost): the engine's answers through CompactBatchJson (each part's JSON made once, and kept
 * across batches),
 * others through the specialised serialiser (same bytes as JSON.stringify), encoded once into
 * the body's bytes (segment-space.ts). Error items are written by `errorJson`.
 */
export function batchJsonBody(
  items: readonly BatchItem[],
  errorJson: (item: Extract<BatchItem, { code: string }>) => string,
): Buffer {
  space.beginBody();
  space.append('[');
  let compact: CompactBatchJson | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as BatchItem;
    if ('at' in item) {
      if (compact?.batch !== item.batch) compact = new CompactBatchJson(item.batch);
      compact.write(item.at, i === 0);
      continue;
    }
    if (i > 0) space.append(',');
    if ('info' in item) space.append(ipInfoJson(ipInfoView(item.info), item.info));
    else space.append(errorJson(item));
  }
  space.append(']');
  return space.takeBody();
}

/**
 * The full-field JSON of each answer of a compact batch, as GET /v1/ip/{ip} sends it: the bytes
 * ipInfoJson(ipInfoView(info)) gives for the answer's IpInfo, written from its parts' segments
 * like a batch's (CompactBatchJson). A batch of coalesced single lookups is written whole at its
 * first answer's call, into one Buffer that each answer is a view of: the generations of the
 * segment space may turn over between the answers of one batch (their reservations end at
 * different times), so its answers are never written apart. An answer the engine failed has no
 * JSON (an empty Buffer).
 */
export function answerJson(batch: CompactBatch, at: number): Buffer {
  let bodies = answerBodies.get(batch);
  if (bodies === undefined) {
    bodies = writeAnswers(batch);
    answerBodies.set(batch, bodies);
  }
  return bodies[at] as Buffer;
}

const answerBodies = new WeakMap<CompactBatch, Buffer[]>();

function writeAnswers(batch: CompactBatch): Buffer[] {
  space.beginBody();
  const json = new CompactBatchJson(batch);
  const ends = new Int32Array(batch.length);
  for (let at = 0; at < batch.length; at++) {
    if (batch.columns.form[at] !== ANSWER_ERROR) json.write(at, true);
    ends[at] = space.written;
  }
  const body = space.takeBody();
  const bodies = new Array<Buffer>(batch.length);
  for (let at = 0, start = 0; at < batch.length; at++) {
    const end = ends[at] as number;
    bodies[at] = body.subarray(start, end);
    start = end;
  }
  return bodies;
}
