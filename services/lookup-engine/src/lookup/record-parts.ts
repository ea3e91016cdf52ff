import { IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import type { LoadedDataset } from '../dataset/loaded-dataset.js';
import { staticIpInfo } from './ip-info.js';
import { splitIpInfo } from './ip-info-parts.js';

/** Part kinds, in the order of their lists in BatchLookupCompactResponse (field numbers 1-4). */
export const COUNTRY = 0;
export const PLACE = 1;
export const OPERATOR = 2;
export const ZONE = 3;
export const PART_KINDS = 4;

/**
 * The parts of every record for BatchLookupCompact, numbered once per dataset: a record's
 * country, place and operator part (encoded IpInfo bytes, deduplicated by content, so all
 * records of a country share one country part) and its time zone (by name; the bytes depend on
 * the second, see ZoneBytes). Split lazily, the first time a record is answered.
 *
 * The bytes of all parts sit back to back in one arena with an [offset, length] pair per part:
 * a part then costs one cache line of spans and its bytes to copy, where a Uint8Array per part
 * cost its array slot, its object and its backing store (measured: encoding a batch of 1,000
 * random IPv4 answers spent ~40% of its time fetching parts that way).
 */
export class RecordParts {
  /** Per record, PART_KINDS ids + 1 (0: not split yet, or no time zone). */
  readonly ids: Int32Array;
  /** Bytes of the country, place and operator parts, back to back. */
  arena = new Uint8Array(1 << 16);
  /** Part id → offset and length of its bytes in `arena` (zone parts: none). */
  spans = new Int32Array(2 * 4096);
  /** Part id → zone name (zone parts; '' for the others). */
  readonly zones: string[] = [];
  /** Part id → its kind (COUNTRY ... ZONE). */
  private kinds = new Uint8Array(4096);
  private arenaLength = 0;
  /**
   * Content hash → the id of the part with that content, or the ids when several share the
   * hash: a number per part, where a string of its bytes as the key held ~1.1 KB of heap per
   * part (421,606 parts when every record of the 2026.09 dataset is answered: ~470 MB).
   */
  private readonly idsByHash = new Map<number, number | number[]>();

  constructor(
    private readonly dataset: LoadedDataset,
    /** The content hash; tests pass one that collides to exercise the byte comparison. */
    private readonly hash: (kind: number, bytes: Uint8Array, zone: string) => number = partHash,
  ) {
    // Zero-filled memory is mapped lazily by the OS: only records that get answered cost RSS.
    this.ids = new Int32Array(dataset.summary.records * PART_KINDS);
  }

  get count(): number {
    return this.zones.length;
  }

  /** Offset of the record's part ids in `ids`, splitting the record on first use. */
  of(recordIndex: number): number {
    const base = recordIndex * PART_KINDS;
    if (this.ids[base] === 0) this.split(recordIndex, base);
    return base;
  }

  private split(recordIndex: number, base: number): void {
    const record = this.dataset.freshRecord(recordIndex);
    const parts = splitIpInfo(staticIpInfo(record));
    this.ids[base + COUNTRY] = this.idOf(COUNTRY, IpInfo.encode(IpInfo.fromPartial(parts.country)).finish(), '') + 1;
    this.ids[base + PLACE] = this.idOf(PLACE, IpInfo.encode(IpInfo.fromPartial(parts.place)).finish(), '') + 1;
    this.ids[base + OPERATOR] = this.idOf(OPERATOR, IpInfo.encode(IpInfo.fromPartial(parts.operator)).finish(), '') + 1;
    const zone = record?.time_zone ?? null;
    this.ids[base + ZONE] = zone === null ? 0 : this.idOf(ZONE, new Uint8Array(0), zone) + 1;
  }

  private idOf(kind: number, bytes: Uint8Array, zone: string): number {
    const hash = this.hash(kind, bytes, zone);
    const found = this.idsByHash.get(hash);
    if (typeof found === 'number') {
      if (this.holds(found, kind, bytes, zone)) return found;
    } else if (found !== undefined) {
      for (const id of found) if (this.holds(id, kind, bytes, zone)) return id;
    }
    const id = this.zones.length;
    this.zones.push(zone);
    this.store(id, kind, bytes);
    if (found === undefined) this.idsByHash.set(hash, id);
    else if (typeof found === 'number') this.idsByHash.set(hash, [found, id]);
    else found.push(id);
    return id;
  }

  /** Whether part `id` is this kind, zone and bytes. */
  private holds(id: number, kind: number, bytes: Uint8Array, zone: string): boolean {
    if (this.kinds[id] !== kind || this.zones[id] !== zone) return false;
    const offset = this.spans[2 * id] as number;
    const length = this.spans[2 * id + 1] as number;
    if (length !== bytes.length) return false;
    for (let i = 0; i < length; i++) if (this.arena[offset + i] !== bytes[i]) return false;
    return true;
  }

  private store(id: number, kind: number, bytes: Uint8Array): void {
    if (2 * id + 2 > this.spans.length) this.spans = grown(this.spans, 2 * id + 2);
    if (id >= this.kinds.length) this.kinds = grown(this.kinds, id + 1);
    this.kinds[id] = kind;
    if (this.arenaLength + bytes.length > this.arena.length) this.arena = grown(this.arena, this.arenaLength + bytes.length);
    this.arena.set(bytes, this.arenaLength);
    this.spans[2 * id] = this.arenaLength;
    this.spans[2 * id + 1] = bytes.length;
    this.arenaLength += bytes.length;
  }
}

/** FNV-1a over the kind, the zone name's UTF-16 units and the bytes. */
function partHash(kind: number, bytes: Uint8Array, zone: string): number {
  let hash = Math.imul(0x811c9dc5 ^ kind, 0x01000193);
  for (let i = 0; i < zone.length; i++) hash = Math.imul(hash ^ zone.charCodeAt(i), 0x01000193);
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

/** A copy of `array` with room for at least `needed` elements (doubling). */
export function grown<T extends Uint8Array | Int32Array>(array: T, needed: number): T {
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}
