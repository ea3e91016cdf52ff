import { writeIpv4Ascii } from '@ipdata/common/ip';
import { PART_ID_BITS } from './part-keys.js';

/** "255.255.255.255/32" */
export const IPV4_TEXT_MAX = 18;
/** An entry says each segment's length in two bytes. */
const SEGMENT_MAX = 0xffff;

/** One generation of cached part entries: a range of the space, filled from its start. */
interface Generation {
  start: number;
  end: number;
  next: number;
  /** Names the generation in the part tables; a new one each time its range is reused. */
  serial: number;
}

const ID_MASK = (1 << PART_ID_BITS) - 1;
/**
 * Part ids a slot's table indexes (8 bytes each: 32 MiB at most); a part with a larger id is
 * written without caching. The engine numbers a whole dataset's parts from 0 (421,606 for the
 * 2026.09 dataset), so its tables stay a few MiB.
 */
const TABLE_IDS_MAX = 1 << 22;

/**
 * The bytes POST /v1/batch writes its JSON from and into, in one Uint8Array, so every copy is a
 * `copyWithin` inside it: no Buffer object per JSON segment to load, check and keep for the GC.
 * With a Buffer per segment, ~12,000 copies a batch spent more time reaching the Buffers (their
 * objects scattered over the heap, up to ~350,000 of them live in a full cache) than copying bytes.
 *
 * Laid out as:
 * - constants (the answer's fixed pieces) and the entries of "no such part", made at start-up;
 * - two generations of part entries (segmentsStart, segmentLength: each entry its segments'
 *   count and lengths, then their UTF-8), found by the part's cache key (PartKeys) in a table per
 *   epoch slot indexed by part id: the entry's offset and its generation's serial, side by side.
 *   A Map per generation before cost ~9% of bff-en's main thread under batch load (~2,400
 *   lookups a batch in maps of ~60,000 keys). When the young generation has less than a batch's
 *   worth of room left at the start of a batch, the old one is dropped (its serial retired, so
 *   the table's rows naming it no longer count) and its range becomes the young one; an entry
 *   found in the old generation is copied into the young one, so the parts in use stay and
 *   one-offs go;
 * - the body being written, copied out once when it is done (a response outlives the next batch).
 *
 * Pages are touched as they are written: a process that never answers a batch does not pay for
 * the space. Used synchronously by one batch at a time (batchJsonBody), so one space per process.
 */
export class SegmentSpace {
  readonly bytes: Uint8Array;
  /** The same memory as a Buffer, for its UTF-8 `write`. */
  private readonly text: Buffer;
  private constantsNext = 0;
  private readonly constantsEnd: number;
  private young: Generation;
  private old: Generation;
  private lastSerial = 2;
  /** Per epoch slot: per part id, [entry offset, generation serial] (serial 0: none). */
  private tables: Int32Array[] = [];
  private readonly bodyStart: number;
  private readonly bodyEnd: number;
  /** Where the body's next byte goes. */
  private position: number;
  /** Body bytes already copied out because the body range filled (rare: bodies of several MB). */
  private chunks: Buffer[] = [];
  /** Their length. */
  private flushed = 0;

  constructor(
    /** Bytes per generation. */
    generationBytes: number,
    /** Room the young generation keeps for one batch's new and moved entries. */
    private readonly batchReserve: number,
    bodyBytes: number,
    constantBytes = 64 * 1024,
  ) {
    this.bytes = new Uint8Array(constantBytes + 2 * generationBytes + bodyBytes);
    this.text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    this.constantsEnd = constantBytes;
    const generation = (start: number, serial: number): Generation => ({
      start,
      end: start + generationBytes,
      next: start,
      serial,
    });
    this.young = generation(constantBytes, 1);
    this.old = generation(constantBytes + generationBytes, 2);
    this.bodyStart = constantBytes + 2 * generationBytes;
    this.bodyEnd = this.bytes.length;
    this.position = this.bodyStart;
  }

  /** Places fixed bytes among the constants; their offset. */
  constant(bytes: Uint8Array): number {
    const at = this.constantsNext;
    if (at + bytes.length > this.constantsEnd) throw new RangeError('segment space: constants full');
    this.bytes.set(bytes, at);
    this.constantsNext = at + bytes.length;
    return at;
  }

  /** Places an entry (its segments) among the constants; its offset. */
  constantEntry(segments: readonly Uint8Array[]): number {
    return this.constant(entryBytes(segments));
  }

  /** Called before a batch looks parts up: makes room for it in the young generation. */
  beginBatch(): void {
    if (this.young.next + this.batchReserve <= this.young.end) return;
    const dropped = this.old;
    dropped.serial = ++this.lastSerial;
    dropped.next = dropped.start;
    this.old = this.young;
    this.young = dropped;
  }

  /** Drops every entry (a part key may mean another part from now on: PartKeys). */
  clear(): void {
    this.tables = [];
    for (const generation of [this.young, this.old]) generation.next = generation.start;
  }

  /**
   * The offset of part `key`'s entry (PartKeys: one part of whatever kind) when the space holds
   * it (one of the old generation is copied into the young one first); -1 when it does not (then
   * `store` its segments). Two calls rather than one taking a maker: a closure per lookup was
   * ~80 KB of garbage per batch.
   */
  cached(key: number): number {
    const table = key < 0 ? undefined : this.tableOf(key);
    if (table === undefined) return -1;
    const row = 2 * (key & ID_MASK);
    const serial = table[row + 1] as number;
    if (serial === this.young.serial) return table[row] as number;
    if (serial === 0 || serial !== this.old.serial) return -1;
    const old = table[row] as number;
    return this.keep(table, row, this.place(old, entryLength(this.bytes, old)));
  }

  /**
   * Places part `key`'s segments in the young generation and keeps them under the key (-1, or
   * an id past TABLE_IDS_MAX: placed, not kept); their offset. -1 when they do not fit (a segment
   * over 64 KiB, or a batch that made more than its reserve): the caller writes that answer
   * another way.
   */
  store(key: number, segments: readonly Uint8Array[]): number {
    const bytes = entryBytes(segments);
    const at = bytes.length === 0 ? -1 : this.placeBytes(bytes);
    const table = key < 0 || at < 0 ? undefined : this.tableOf(key);
    return table === undefined ? at : this.keep(table, 2 * (key & ID_MASK), at);
  }

  /** Starts a body. */
  beginBody(): void {
    this.position = this.bodyStart;
    this.chunks = [];
    this.flushed = 0;
  }

  /** Body bytes written since beginBody. */
  get written(): number {
    return this.flushed + this.position - this.bodyStart;
  }

  /** Makes room for `length` more body bytes, copying what the body holds out when the range is full. */
  reserve(length: number): void {
    if (this.position + length <= this.bodyEnd) return;
    this.flush();
    if (this.bodyStart + length > this.bodyEnd) throw new RangeError('segment space: a piece larger than the body range');
  }

  /** Copies `length` bytes from `from` (a constant or an entry's segment) to the body. */
  copy(from: number, length: number): void {
    this.bytes.copyWithin(this.position, from, from + length);
    this.position += length;
  }

  /** Copies bytes from outside the space to the body (call reserve first). */
  copyIn(bytes: Uint8Array): void {
    this.bytes.set(bytes, this.position);
    this.position += bytes.length;
  }

  /** Writes text as UTF-8 to the body. */
  append(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair: 4 bytes for 2 units).
    const worst = text.length * 3;
    if (this.bodyStart + worst > this.bodyEnd) {
      this.flush();
      const out = Buffer.from(text, 'utf8');
      this.chunks.push(out);
      this.flushed += out.length;
      return;
    }
    this.reserve(worst);
    this.position += this.text.write(text, this.position);
  }

  /** An IPv4 address (and "/prefixLength" when given) as ASCII (reserve IPV4_TEXT_MAX first). */
  appendIpv4(value: number, prefixLength = -1): void {
    this.position = writeIpv4Ascii(this.bytes, this.position, value, prefixLength);
  }

  /** The body written since beginBody, as a Buffer of its own. */
  takeBody(): Buffer {
    this.flush();
    const chunks = this.chunks;
    this.chunks = [];
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  }

  /** Entries held, both generations (tests). */
  get size(): number {
    let size = 0;
    for (const table of this.tables) {
      if (table === undefined) continue;
      for (let row = 1; row < table.length; row += 2) {
        if (table[row] === this.young.serial || table[row] === this.old.serial) size++;
      }
    }
    return size;
  }

  /** Notes a young entry at `at` in a table row (nothing when it was not placed); `at`. */
  private keep(table: Int32Array, row: number, at: number): number {
    if (at >= 0) {
      table[row] = at;
      table[row + 1] = this.young.serial;
    }
    return at;
  }

  /** The table of the key's epoch slot, grown to hold its id; undefined when the id is past TABLE_IDS_MAX. */
  private tableOf(key: number): Int32Array | undefined {
    const slot = key >>> PART_ID_BITS;
    const id = key & ID_MASK;
    const table = this.tables[slot];
    if (table !== undefined && 2 * id < table.length) return table;
    if (id >= TABLE_IDS_MAX) return undefined;
    let ids = Math.max(1024, (table?.length ?? 0) / 2);
    while (ids <= id) ids *= 2;
    const grown = new Int32Array(2 * ids);
    if (table !== undefined) grown.set(table);
    this.tables[slot] = grown;
    return grown;
  }

  private flush(): void {
    const length = this.position - this.bodyStart;
    if (length === 0 && this.chunks.length > 0) return;
    const out = Buffer.allocUnsafe(length);
    out.set(this.bytes.subarray(this.bodyStart, this.position));
    this.chunks.push(out);
    this.flushed += length;
    this.position = this.bodyStart;
  }

  /** Copies an old entry into the young generation. */
  private place(from: number, length: number): number {
    const young = this.young;
    if (young.next + length > young.end) return -1;
    const at = young.next;
    this.bytes.copyWithin(at, from, from + length);
    young.next = at + length;
    return at;
  }

  private placeBytes(bytes: Uint8Array): number {
    const young = this.young;
    if (young.next + bytes.length > young.end) return -1;
    const at = young.next;
    this.bytes.set(bytes, at);
    young.next = at + bytes.length;
    return at;
  }
}

/** The length of segment `index` of the entry at `at`. */
export function segmentLength(bytes: Uint8Array, at: number, index: number): number {
  return (bytes[at + 1 + 2 * index] as number) | ((bytes[at + 2 + 2 * index] as number) << 8);
}

/** Where the segments of the entry at `at` start (the first one; each follows the one before). */
export function segmentsStart(bytes: Uint8Array, at: number): number {
  return at + 1 + 2 * (bytes[at] as number);
}

/**
 * An entry's bytes: its number of segments (one byte), each segment's length (two bytes,
 * little-endian), then the segments. Empty when a segment is too long to say so.
 */
function entryBytes(segments: readonly Uint8Array[]): Uint8Array {
  let length = 1 + 2 * segments.length;
  for (const segment of segments) {
    if (segment.length > SEGMENT_MAX) return new Uint8Array(0);
    length += segment.length;
  }
  const bytes = new Uint8Array(length);
  bytes[0] = segments.length;
  let at = 1 + 2 * segments.length;
  segments.forEach((segment, index) => {
    bytes[1 + 2 * index] = segment.length & 0xff;
    bytes[2 + 2 * index] = segment.length >>> 8;
    bytes.set(segment, at);
    at += segment.length;
  });
  return bytes;
}

function entryLength(bytes: Uint8Array, at: number): number {
  let length = segmentsStart(bytes, at) - at;
  for (let index = 0; index < (bytes[at] as number); index++) length += segmentLength(bytes, at, index);
  return length;
}
