/**
 * The MaxMind DB data section encoding (https://maxmind.github.io/MaxMind-DB/, "Output Data
 * Section"): a control byte (type in the top 3 bits, size in the low 5), an extended-type byte
 * for types above 7, 0–3 size bytes, then the payload, all big-endian. Written from the spec.
 */

/** An unsigned integer with the MMDB type it is written as (a plain JS number is a double). */
export class MmdbUint {
  constructor(
    readonly type: 'uint16' | 'uint32' | 'uint64',
    readonly value: number,
  ) {
    const max = type === 'uint16' ? 0xffff : type === 'uint32' ? 0xffffffff : Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`${value} is not a ${type}`);
  }
}

export const uint16 = (value: number) => new MmdbUint('uint16', value);
export const uint32 = (value: number) => new MmdbUint('uint32', value);
export const uint64 = (value: number) => new MmdbUint('uint64', value);

/** A value the writer can encode: map, array, utf8 string, double (number), boolean, unsigned ints. */
export type MmdbValue = string | number | boolean | MmdbUint | readonly MmdbValue[] | { readonly [key: string]: MmdbValue };

export const TYPE = {
  pointer: 1,
  utf8String: 2,
  double: 3,
  uint16: 5,
  uint32: 6,
  map: 7,
  uint64: 9,
  array: 11,
  boolean: 14,
} as const;

const INT_TYPE = { uint16: TYPE.uint16, uint32: TYPE.uint32, uint64: TYPE.uint64 } as const;

/** Bytes a pointer to `offset` takes (control byte included). */
export function pointerSize(offset: number): number {
  if (offset < 2048) return 2;
  if (offset < 526336) return 3;
  if (offset < 134744064) return 4;
  return 5;
}

/**
 * Appends encoded values to a growing buffer. With `dedupe`, a string seen before (when the
 * pointer is shorter) and a map/array object seen before (the same object) are written as a
 * pointer to the first copy, so keys ("names", "en"), shared country maps and city names are
 * stored once. Pointers always target a value that is not itself a pointer, as the spec requires.
 */
export class DataSectionWriter {
  private bytes = Buffer.alloc(1 << 16);
  private length = 0;
  private readonly strings = new Map<string, number>();
  private readonly containers = new Map<object, number>();
  private readonly scratch = Buffer.alloc(8);

  constructor(private readonly dedupe: boolean) {}

  get size(): number {
    return this.length;
  }

  /** The encoded section so far (a view, valid until the next add). */
  view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  /** Writes `value` inline (never as a pointer) and returns its offset in the section. */
  add(value: MmdbValue): number {
    const offset = this.length;
    this.writeInline(value);
    return offset;
  }

  private writeValue(value: MmdbValue): void {
    if (!this.dedupe) return this.writeInline(value);
    if (typeof value === 'string') {
      if (value.length < 2) return this.writeInline(value);
      const earlier = this.strings.get(value);
      // A string not longer than the pointer stays inline (its first copy stays the target).
      if (earlier !== undefined && pointerSize(earlier) < 1 + Buffer.byteLength(value, 'utf8')) {
        return this.writePointer(earlier);
      }
      if (earlier === undefined) this.strings.set(value, this.length);
      return this.writeInline(value);
    }
    if (typeof value !== 'object' || value instanceof MmdbUint) return this.writeInline(value);
    // Containers by identity: callers share equal parts as one object (cheap, no serialising).
    const earlier = this.containers.get(value);
    if (earlier !== undefined) return this.writePointer(earlier);
    this.containers.set(value, this.length);
    this.writeInline(value);
  }

  private writeInline(value: MmdbValue): void {
    if (typeof value === 'string') {
      const size = Buffer.byteLength(value, 'utf8');
      this.writeControl(TYPE.utf8String, size);
      this.reserve(size);
      this.length += this.bytes.write(value, this.length, 'utf8');
    } else if (typeof value === 'number') {
      this.writeControl(TYPE.double, 8);
      this.reserve(8);
      this.bytes.writeDoubleBE(value, this.length);
      this.length += 8;
    } else if (typeof value === 'boolean') {
      this.writeControl(TYPE.boolean, value ? 1 : 0);
    } else if (value instanceof MmdbUint) {
      this.writeUint(value);
    } else if (Array.isArray(value)) {
      this.writeControl(TYPE.array, value.length);
      for (const item of value as readonly MmdbValue[]) this.writeValue(item);
    } else {
      const entries = Object.entries(value as { readonly [key: string]: MmdbValue });
      this.writeControl(TYPE.map, entries.length);
      for (const [key, item] of entries) {
        this.writeValue(key);
        this.writeValue(item);
      }
    }
  }

  /** Unsigned ints take as many bytes as the value needs (0 bytes for 0). */
  private writeUint({ type, value }: MmdbUint): void {
    let size = 0;
    for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) size++;
    this.writeControl(INT_TYPE[type], size);
    this.reserve(size);
    for (let i = size - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 256)) {
      this.bytes[this.length + i] = rest % 256;
    }
    this.length += size;
  }

  private writePointer(offset: number): void {
    const size = pointerSize(offset);
    this.reserve(size);
    const at = this.length;
    if (size === 2) {
      this.bytes[at] = (TYPE.pointer << 5) | (offset >>> 8);
      this.bytes[at + 1] = offset & 0xff;
    } else if (size === 3) {
      const v = offset - 2048;
      this.bytes[at] = (TYPE.pointer << 5) | (1 << 3) | (v >>> 16);
      this.bytes.writeUInt16BE(v & 0xffff, at + 1);
    } else if (size === 4) {
      const v = offset - 526336;
      this.bytes[at] = (TYPE.pointer << 5) | (2 << 3) | (v >>> 24);
      this.bytes[at + 1] = (v >>> 16) & 0xff;
      this.bytes.writeUInt16BE(v & 0xffff, at + 2);
    } else {
      this.bytes[at] = (TYPE.pointer << 5) | (3 << 3);
      this.bytes.writeUInt32BE(offset, at + 1);
    }
    this.length += size;
  }

  /** Control byte, extended type byte for types > 7, then the size bytes. */
  private writeControl(type: number, size: number): void {
    if (size > 16843036) throw new RangeError(`an MMDB field holds at most 16,843,036 bytes or entries, not ${size}`);
    const s = this.scratch;
    let n = 1;
    const typeBits = type <= 7 ? type << 5 : 0;
    if (type > 7) s[n++] = type - 7;
    if (size < 29) {
      s[0] = typeBits | size;
    } else if (size < 285) {
      s[0] = typeBits | 29;
      s[n++] = size - 29;
    } else if (size < 65821) {
      s[0] = typeBits | 30;
      s.writeUInt16BE(size - 285, n);
      n += 2;
    } else {
      s[0] = typeBits | 31;
      const v = size - 65821;
      s[n++] = v >>> 16;
      s.writeUInt16BE(v & 0xffff, n);
      n += 2;
    }
    this.reserve(n);
    s.copy(this.bytes, this.length, 0, n);
    this.length += n;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const grown = Buffer.alloc(capacity);
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
