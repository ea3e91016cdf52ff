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
 */
export class RecordParts {
  /** Per record, PART_KINDS ids + 1 (0: not split yet, or no time zone). */
  readonly ids: Int32Array;
  /** Part id → its kind. */
  readonly kinds: number[] = [];
  /** Part id → encoded IpInfo (country, place, operator parts). */
  readonly bytes: Uint8Array[] = [];
  /** Part id → zone name (zone parts). */
  readonly zones: string[] = [];
  private readonly idByKey = new Map<string, number>();

  constructor(private readonly dataset: LoadedDataset) {
    // Zero-filled memory is mapped lazily by the OS: only records that get answered cost RSS.
    this.ids = new Int32Array(dataset.summary.records * PART_KINDS);
  }

  get count(): number {
    return this.kinds.length;
  }

  /** Offset of the record's part ids in `ids`, splitting the record on first use. */
  of(recordIndex: number): number {
    const base = recordIndex * PART_KINDS;
    if (this.ids[base] === 0) this.split(recordIndex, base);
    return base;
  }

  private split(recordIndex: number, base: number): void {
    const record = this.dataset.record(recordIndex);
    const parts = splitIpInfo(staticIpInfo(record));
    this.ids[base + COUNTRY] = this.idOf(COUNTRY, IpInfo.encode(IpInfo.fromPartial(parts.country)).finish(), '') + 1;
    this.ids[base + PLACE] = this.idOf(PLACE, IpInfo.encode(IpInfo.fromPartial(parts.place)).finish(), '') + 1;
    this.ids[base + OPERATOR] = this.idOf(OPERATOR, IpInfo.encode(IpInfo.fromPartial(parts.operator)).finish(), '') + 1;
    const zone = record?.time_zone ?? null;
    this.ids[base + ZONE] = zone === null ? 0 : this.idOf(ZONE, new Uint8Array(0), zone) + 1;
  }

  private idOf(kind: number, bytes: Uint8Array, zone: string): number {
    const key = `${kind}:${zone}:${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')}`;
    let id = this.idByKey.get(key);
    if (id === undefined) {
      id = this.kinds.length;
      this.kinds.push(kind);
      this.bytes.push(bytes);
      this.zones.push(zone);
      this.idByKey.set(key, id);
    }
    return id;
  }
}
