import { randomUUID } from 'node:crypto';
import { isDomainError } from '@ipdata/common';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { NONE } from '@ipdata/dataset/format';
import { emptyLocation, type LoadedDataset } from '../dataset/loaded-dataset.js';
import { Sink } from '../wire/wire-sink.js';
import { LEN, tag, VARINT } from '../wire/wire-types.js';
import { grown, PART_KINDS, RecordParts, ZONE } from './record-parts.js';
import { ZoneBytes } from './zone-bytes.js';

// Field tags of BatchLookupCompactResponse and BatchLookupCompactItem (see lookup.proto).
const PART_LIST = [tag(1, LEN), tag(2, LEN), tag(3, LEN), tag(4, LEN)] as const;
const RESPONSE_ITEM = tag(5, LEN);
const ITEM_QUERY = tag(1, LEN);
const ITEM_ERROR = tag(2, LEN);
const ITEM_PART = [tag(3, VARINT), tag(4, VARINT), tag(5, VARINT), tag(6, VARINT)] as const;
const ITEM_FIRST = tag(7, LEN);
const ITEM_LAST = tag(8, LEN);
const ITEM_RESERVED = tag(9, VARINT);
const PARTS_EPOCH = tag(6, LEN);
/** Packed country_ids, place_ids, operator_ids: the parts' numbers, in list order. */
const PART_IDS = [tag(7, LEN), tag(8, LEN), tag(9, LEN)] as const;

/**
 * Writes BatchLookupCompactResponse bytes: each part (country, place, operator, time zone) goes
 * into the response once, just before the first item that names it, and items carry positions
 * plus their range as 4- or 16-byte addresses. Random addresses share parts a lot (per 1,000:
 * ~120 country, ~500 place, ~480 operator parts, ~90 zones), so a response is about a third of
 * BatchLookup's bytes, and the client builds far fewer strings. After the items come the parts'
 * numbers (RecordParts ids under this encoder's parts_epoch), so a client can keep what it made
 * from a part across responses without keying it by the part's bytes. One encoder per loaded
 * dataset.
 */
export class CompactBatchEncoder {
  private readonly parts: RecordParts;
  private readonly zoneBytes = new ZoneBytes();
  /** Per part id, side by side: the response that last sent it (stamp) and its 1-based position there. */
  private sent = new Int32Array(2 * 4096);
  private response = 0;
  /** Parts sent so far in the current response, per kind. */
  private readonly counts = new Int32Array(PART_KINDS);
  /** The current item's part positions per kind (0: none). */
  private readonly refs = new Int32Array(PART_KINDS);
  private readonly location = emptyLocation();
  private readonly words = new Uint32Array(4);
  /** Per kind but time zones: the part ids sent in the current response, in list order. */
  private readonly sentIds: Int32Array[] = [new Int32Array(1024), new Int32Array(1024), new Int32Array(1024)];
  /**
   * Names this encoder's part numbering (RecordParts numbers parts in the order records are first
   * answered, so another process or dataset numbers them otherwise): sent as parts_epoch.
   */
  readonly partsEpoch = randomUUID();

  constructor(readonly dataset: LoadedDataset) {
    this.parts = new RecordParts(dataset);
  }

  /** Every query gets its parts and range, or its error, in request order. */
  encode(queries: readonly string[], nowMs: number): Buffer {
    const sink = new Sink(Math.max(1024, queries.length * 150));
    const response = this.nextResponse();
    const location = this.location;
    const refs = this.refs;
    for (const query of queries) {
      try {
        this.dataset.locate(query, location);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        const at = sink.openLength(RESPONSE_ITEM);
        sink.string(ITEM_QUERY, query);
        sink.string(ITEM_ERROR, error.message);
        sink.closeLength(at);
        continue;
      }
      const located = location.reserved === ReservedReason.RESERVED_REASON_UNSPECIFIED && location.recordIndex !== NONE;
      // Parts first: a part precedes the first item naming it, and the item is written in place.
      if (located) this.sendParts(sink, location.recordIndex, response, nowMs);
      const at = sink.openLength(RESPONSE_ITEM);
      sink.string(ITEM_QUERY, query);
      if (located) {
        for (let kind = 0; kind < PART_KINDS; kind++) {
          if (refs[kind] === 0) continue;
          sink.varint(ITEM_PART[kind] as number);
          sink.varint(refs[kind] as number);
        }
      }
      this.writeRange(sink, location.family, location.range);
      if (location.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
        sink.varint(ITEM_RESERVED);
        sink.varint(location.reserved);
      }
      sink.closeLength(at);
    }
    this.writePartIds(sink);
    return sink.take();
  }

  /** parts_epoch and each list's part ids, packed, after the items (protobuf allows any order). */
  private writePartIds(sink: Sink): void {
    sink.string(PARTS_EPOCH, this.partsEpoch);
    for (let kind = 0; kind < ZONE; kind++) {
      const count = this.counts[kind] as number;
      if (count === 0) continue;
      const ids = this.sentIds[kind] as Int32Array;
      const at = sink.openLength(PART_IDS[kind] as number);
      for (let i = 0; i < count; i++) sink.varint(ids[i] as number);
      sink.closeLength(at);
    }
  }

  /** Sends the record's parts this response has not carried yet; leaves their positions in `refs`. */
  private sendParts(sink: Sink, recordIndex: number, response: number, nowMs: number): void {
    const parts = this.parts;
    const base = parts.of(recordIndex);
    if (2 * parts.count > this.sent.length) this.sent = grown(this.sent, 2 * parts.count);
    const sent = this.sent;
    for (let kind = 0; kind < PART_KINDS; kind++) {
      this.refs[kind] = 0;
      const id = (parts.ids[base + kind] as number) - 1;
      if (id < 0) continue;
      if (sent[2 * id] !== response) {
        if (kind === ZONE) {
          const bytes = this.zoneBytes.get(parts.zones[id] as string, nowMs);
          if (bytes === null) continue; // a zone the runtime does not know: no time zone, as in BatchLookup
          sink.raw(PART_LIST[kind], bytes);
        } else {
          const offset = parts.spans[2 * id] as number;
          sink.raw(PART_LIST[kind] as number, parts.arena, offset, offset + (parts.spans[2 * id + 1] as number));
          this.noteSentId(kind, id);
        }
        sent[2 * id] = response;
        sent[2 * id + 1] = ++(this.counts[kind] as number);
      }
      this.refs[kind] = sent[2 * id + 1] as number;
    }
  }

  /** Records that the next part of `kind` in this response is part `id` (before counts[kind] moves on). */
  private noteSentId(kind: number, id: number): void {
    const position = this.counts[kind] as number;
    let ids = this.sentIds[kind] as Int32Array;
    if (position >= ids.length) this.sentIds[kind] = ids = grown(ids, position + 1);
    ids[position] = id;
  }

  private writeRange(sink: Sink, family: 4 | 6, range: number): void {
    const words = this.words;
    if (family === 4) {
      words[0] = this.dataset.view.ipv4Starts[range] as number;
      words[1] = this.dataset.lastOf4(range);
      sink.words(ITEM_FIRST, words, 0, 1);
      sink.words(ITEM_LAST, words, 1, 1);
    } else {
      sink.words(ITEM_FIRST, this.dataset.view.ipv6Starts, range * 4, 4);
      this.dataset.lastWordsOf6(range, words);
      sink.words(ITEM_LAST, words, 0, 4);
    }
  }

  /** A fresh stamp per response, so the sent-part marks never need clearing. */
  private nextResponse(): number {
    this.counts.fill(0);
    if (this.response === 0x7fffffff) {
      this.sent.fill(0);
      this.response = 0;
    }
    return ++this.response;
  }
}
