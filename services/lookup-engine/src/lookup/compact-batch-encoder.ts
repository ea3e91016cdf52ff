import { isDomainError } from '@ipdata/common';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { LoadedDataset } from '../dataset/loaded-dataset.js';
import { Sink } from '../wire/wire-sink.js';
import { LEN, tag, VARINT } from '../wire/wire-types.js';
import { PART_KINDS, RecordParts, ZONE } from './record-parts.js';
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

/**
 * Writes BatchLookupCompactResponse bytes: each part (country, place, operator, time zone) goes
 * into the response once, just before the first item that names it, and items carry positions
 * plus their range as 4- or 16-byte addresses. Random addresses share parts a lot (per 1,000:
 * ~120 country, ~500 place, ~480 operator parts, ~90 zones), so a response is about a third of
 * BatchLookup's bytes, and the client builds far fewer strings. One encoder per loaded dataset.
 */
export class CompactBatchEncoder {
  private readonly parts: RecordParts;
  private readonly zoneBytes = new ZoneBytes();
  /** Per part id: the response that last sent it (stamp) and its 1-based position there. */
  private sentIn = new Int32Array(4096);
  private sentAt = new Int32Array(4096);
  private response = 0;
  private readonly item = new Sink(256);
  private readonly words = new Uint32Array(4);

  constructor(readonly dataset: LoadedDataset) {
    this.parts = new RecordParts(dataset);
  }

  /** Every query gets its parts and range, or its error, in request order. */
  encode(queries: readonly string[], nowMs: number): Buffer {
    const sink = new Sink(Math.max(1024, queries.length * 150));
    const counts = [0, 0, 0, 0];
    const response = this.nextResponse();
    const item = this.item;
    const parts = this.parts;
    for (const query of queries) {
      item.position = 0;
      item.string(ITEM_QUERY, query);
      let resolution;
      try {
        resolution = this.dataset.resolve(query);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        item.string(ITEM_ERROR, error.message);
        sink.raw(RESPONSE_ITEM, item.take());
        continue;
      }
      if (resolution.record !== null) {
        const base = parts.of(resolution.recordIndex);
        this.ensureCapacity(parts.count);
        for (let kind = 0; kind < PART_KINDS; kind++) {
          const id = (parts.ids[base + kind] as number) - 1;
          if (id < 0) continue;
          if (this.sentIn[id] !== response) {
            const bytes = kind === ZONE ? this.zoneBytes.get(parts.zones[id] as string, nowMs) : (parts.bytes[id] as Uint8Array);
            if (bytes === null) continue; // a zone the runtime does not know: no time zone, as in BatchLookup
            sink.raw(PART_LIST[kind] as number, bytes);
            this.sentIn[id] = response;
            this.sentAt[id] = ++(counts[kind] as number);
          }
          item.varint(ITEM_PART[kind] as number);
          item.varint(this.sentAt[id] as number);
        }
      }
      this.writeRange(item, resolution.family, resolution.range);
      if (resolution.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
        item.varint(ITEM_RESERVED);
        item.varint(resolution.reserved);
      }
      sink.raw(RESPONSE_ITEM, item.take());
    }
    return sink.take();
  }

  private writeRange(item: Sink, family: 4 | 6, range: number): void {
    const words = this.words;
    if (family === 4) {
      words[0] = this.dataset.view.ipv4Starts[range] as number;
      words[1] = this.dataset.lastOf4(range);
      item.words(ITEM_FIRST, words, 0, 1);
      item.words(ITEM_LAST, words, 1, 1);
    } else {
      item.words(ITEM_FIRST, this.dataset.view.ipv6Starts, range * 4, 4);
      this.dataset.lastWordsOf6(range, words);
      item.words(ITEM_LAST, words, 0, 4);
    }
  }

  /** A fresh stamp per response, so the sent-part marks never need clearing. */
  private nextResponse(): number {
    if (this.response === 0x7fffffff) {
      this.sentIn.fill(0);
      this.response = 0;
    }
    return ++this.response;
  }

  private ensureCapacity(partCount: number): void {
    if (partCount <= this.sentIn.length) return;
    const size = Math.max(partCount, this.sentIn.length * 2);
    const sentIn = new Int32Array(size);
    sentIn.set(this.sentIn);
    const sentAt = new Int32Array(size);
    sentAt.set(this.sentAt);
    this.sentIn = sentIn;
    this.sentAt = sentAt;
  }
}
