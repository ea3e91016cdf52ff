import { TYPE } from './mmdb-data.js';
import { DATA_SECTION_SEPARATOR, METADATA_MARKER } from './mmdb-writer.js';

/**
 * `mmdbverify`-style checks of a whole MaxMind DB file, independent of the writer's code paths:
 * metadata (required keys and types), search tree size = node_count × record_size × 2 / 8, the
 * 16 zero bytes after the tree, the metadata marker present once, every record in range (a
 * node, node_count, or a data offset inside the data section), every node reachable from node 0
 * with no path longer than the address bits (no cycles), and a sequential decode of the data
 * section: every tree record points at the start of a top-level value, every pointer at a
 * non-pointer value inside the section.
 */
export interface MmdbCheck {
  nodeCount: number;
  recordSize: number;
  ipVersion: number;
  databaseType: string;
  buildEpoch: number;
  languages: string[];
  description: Record<string, string>;
  searchTreeBytes: number;
  dataSectionBytes: number;
  /** Tree records pointing at data (networks with data; shared subtrees counted once). */
  dataRecords: number;
  emptyRecords: number;
  /** Top-level values in the data section. */
  values: number;
}

export class MmdbVerifyError extends Error {
  override name = 'MmdbVerifyError';
}

const fail = (message: string): never => {
  throw new MmdbVerifyError(message);
};

interface Control {
  type: number;
  size: number;
  /** Offset after the control, extended type and size bytes. */
  payload: number;
}

/** Reads fields of [start, end) of `bytes`; offsets are relative to `start` (pointer base). */
class FieldReader {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  private byte(at: number): number {
    if (at < 0 || this.start + at >= this.end) fail(`field at ${at} runs past its section`);
    return this.bytes[this.start + at] as number;
  }

  control(at: number): Control {
    const first = this.byte(at);
    let type = first >>> 5;
    let next = at + 1;
    if (type === 0) {
      type = this.byte(next++) + 7;
      if (type < 8 || type > 15) fail(`invalid extended type ${type} at ${at}`);
    }
    if (type === TYPE.pointer) {
      const sizeBits = (first >>> 3) & 3;
      const low = first & 7;
      let target: number;
      if (sizeBits === 0) target = (low << 8) | this.byte(next++);
      else if (sizeBits === 1) target = 2048 + ((low << 16) | (this.byte(next) << 8) | this.byte(next + 1));
      else if (sizeBits === 2) {
        target = 526336 + (low << 24) + ((this.byte(next) << 16) | (this.byte(next + 1) << 8) | this.byte(next + 2));
      } else {
        target =
          ((this.byte(next) << 24) >>> 0) + ((this.byte(next + 1) << 16) | (this.byte(next + 2) << 8) | this.byte(next + 3));
      }
      if (sizeBits > 0) next += sizeBits + 1;
      return { type, size: target, payload: next };
    }
    let size = first & 31;
    if (size === 29) size = 29 + this.byte(next++);
    else if (size === 30) {
      size = 285 + ((this.byte(next) << 8) | this.byte(next + 1));
      next += 2;
    } else if (size === 31) {
      size = 65821 + ((this.byte(next) << 16) | (this.byte(next + 1) << 8) | this.byte(next + 2));
      next += 3;
    }
    return { type, size, payload: next };
  }

  /** Skips one field (a pointer is not followed: its target is checked); returns the next offset. */
  skip(at: number, pointer: (target: number) => void): number {
    const { type, size, payload } = this.control(at);
    switch (type) {
      case TYPE.pointer:
        pointer(size);
        return payload;
      case TYPE.map: {
        let next = payload;
        for (let i = 0; i < size; i++) {
          const key = this.control(next);
          if (key.type !== TYPE.utf8String && key.type !== TYPE.pointer) fail(`map key at ${next} is type ${key.type}`);
          next = this.skip(next, pointer);
          next = this.skip(next, pointer);
        }
        return next;
      }
      case 11: {
        let next = payload;
        for (let i = 0; i < size; i++) next = this.skip(next, pointer);
        return next;
      }
      case 14:
        if (size > 1) fail(`boolean at ${at} has size ${size}`);
        return payload;
      case 3:
        if (size !== 8) fail(`double at ${at} has size ${size}`);
        return payload + 8;
      case 15:
        if (size !== 4) fail(`float at ${at} has size ${size}`);
        return payload + 4;
      case 12:
      case 13:
        fail(`unexpected type ${type} at ${at}`);
        return payload;
      default:
        if (payload + size > this.end - this.start) fail(`field at ${at} runs past its section`);
        if (type === TYPE.utf8String) {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(
              this.bytes.subarray(this.start + payload, this.start + payload + size),
            );
          } catch {
            fail(`string at ${at} is not valid UTF-8`);
          }
        }
        return payload + size;
    }
  }

  /** Decodes one value, following pointers (metadata). */
  value(at: number): unknown {
    const { type, size, payload } = this.control(at);
    const bytes = this.bytes;
    const from = this.start + payload;
    switch (type) {
      case TYPE.pointer:
        return this.value(size);
      case TYPE.utf8String:
        return bytes.toString('utf8', from, from + size);
      case TYPE.double:
        return bytes.readDoubleBE(from);
      case TYPE.uint16:
      case TYPE.uint32:
      case 9: {
        let value = 0;
        for (let i = 0; i < size; i++) value = value * 256 + (bytes[from + i] as number);
        return value;
      }
      case TYPE.map: {
        const map: Record<string, unknown> = {};
        let next = payload;
        for (let i = 0; i < size; i++) {
          const key = this.value(next);
          next = this.skip(next, () => undefined);
          map[String(key)] = this.value(next);
          next = this.skip(next, () => undefined);
        }
        return map;
      }
      case 11: {
        const list: unknown[] = [];
        let next = payload;
        for (let i = 0; i < size; i++) {
          list.push(this.value(next));
          next = this.skip(next, () => undefined);
        }
        return list;
      }
      case 14:
        return size === 1;
      default:
        return fail(`metadata holds an unsupported type ${type}`);
    }
  }
}

function readRecord(bytes: Buffer, node: number, side: 0 | 1, recordSize: number): number {
  const at = (node * recordSize) / 4;
  if (recordSize === 24) return bytes.readUIntBE(at + side * 3, 3);
  if (recordSize === 32) return bytes.readUInt32BE(at + side * 4);
  const middle = bytes[at + 3] as number;
  return side === 0
    ? ((middle >>> 4) * 0x1000000 + bytes.readUIntBE(at, 3)) >>> 0
    : ((middle & 0x0f) * 0x1000000 + bytes.readUIntBE(at + 4, 3)) >>> 0;
}

export function verifyMmdb(bytes: Buffer): MmdbCheck {
  const marker = bytes.lastIndexOf(METADATA_MARKER);
  if (marker < 0) fail('metadata marker not found');
  if (bytes.indexOf(METADATA_MARKER) !== marker) fail('the metadata marker occurs more than once');
  const metaStart = marker + METADATA_MARKER.length;
  if (bytes.length - marker > 128 * 1024) fail('metadata section is larger than 128 KiB');
  const meta = new FieldReader(bytes, metaStart, bytes.length).value(0) as Record<string, unknown>;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) fail('metadata is not a map');
  const int = (key: string): number => {
    const value = meta[key];
    if (typeof value !== 'number' || !Number.isInteger(value)) fail(`metadata ${key} is missing or not an integer`);
    return value as number;
  };
  const nodeCount = int('node_count');
  const recordSize = int('record_size');
  const ipVersion = int('ip_version');
  const buildEpoch = int('build_epoch');
  if (int('binary_format_major_version') !== 2) fail('binary_format_major_version is not 2');
  int('binary_format_minor_version');
  if (![24, 28, 32].includes(recordSize)) fail(`record_size ${recordSize} is not 24, 28 or 32`);
  if (ipVersion !== 4 && ipVersion !== 6) fail(`ip_version ${ipVersion} is not 4 or 6`);
  const databaseType = meta.database_type;
  if (typeof databaseType !== 'string' || databaseType === '') fail('database_type is missing');
  const languages = meta.languages ?? [];
  if (!Array.isArray(languages) || !languages.every((l) => typeof l === 'string')) fail('languages is not an array of strings');
  const description = meta.description ?? {};
  if (typeof description !== 'object' || !Object.values(description).every((d) => typeof d === 'string')) {
    fail('description is not a map of strings');
  }

  const searchTreeBytes = (nodeCount * recordSize * 2) / 8;
  const dataStart = searchTreeBytes + DATA_SECTION_SEPARATOR;
  if (dataStart > marker) fail(`search tree (${searchTreeBytes} bytes) and separator run past the metadata marker`);
  for (let i = searchTreeBytes; i < dataStart; i++) if (bytes[i] !== 0) fail('the data section separator is not 16 zero bytes');
  const dataSectionBytes = marker - dataStart;

  // The data section, value after value: every start is a valid field, every pointer lands on one.
  const data = new FieldReader(bytes, dataStart, marker);
  const starts = new Uint8Array(dataSectionBytes + 1);
  const targets: number[] = [];
  let values = 0;
  for (let at = 0; at < dataSectionBytes; values++) {
    starts[at] = 1;
    at = data.skip(at, (target) => targets.push(target));
  }
  for (const target of targets) {
    if (target >= dataSectionBytes) fail(`pointer to ${target} lies outside the data section (${dataSectionBytes} bytes)`);
    if (data.control(target).type === TYPE.pointer) fail(`pointer to ${target} points at another pointer`);
  }

  // The tree: records in range, nodes reachable, no path longer than the address bits.
  const bits = ipVersion === 6 ? 128 : 32;
  const height = new Int16Array(nodeCount); // 0 unvisited, -1 on the current path, else height
  let dataRecords = 0;
  let emptyRecords = 0;
  const visit = (node: number, depth: number): number => {
    if (depth >= bits) fail(`a path from node 0 is longer than ${bits} bits (a cycle?)`);
    const known = height[node] as number;
    if (known === -1) fail(`node ${node} is on a cycle`);
    if (known > 0) {
      if (depth + known > bits) fail(`node ${node} is reached ${depth} bits deep but its subtree is ${known} deep`);
      return known;
    }
    height[node] = -1;
    let tallest = 0;
    for (const side of [0, 1] as const) {
      const record = readRecord(bytes, node, side, recordSize);
      if (record < nodeCount) tallest = Math.max(tallest, visit(record, depth + 1));
      else if (record === nodeCount) emptyRecords++;
      else {
        const offset = record - nodeCount - DATA_SECTION_SEPARATOR;
        if (offset < 0 || offset >= dataSectionBytes) {
          fail(`node ${node} record ${side} (${record}) points outside the data section`);
        }
        if (starts[offset] !== 1) fail(`node ${node} record ${side} points into the middle of a value (offset ${offset})`);
        dataRecords++;
      }
    }
    height[node] = tallest + 1;
    return tallest + 1;
  };
  if (nodeCount === 0) fail('node_count is 0');
  visit(0, 0);
  for (let n = 0; n < nodeCount; n++) if (height[n] === 0) fail(`node ${n} is not reachable from node 0`);

  return {
    nodeCount,
    recordSize,
    ipVersion,
    databaseType: databaseType as string,
    buildEpoch,
    languages: languages as string[],
    description: description as Record<string, string>,
    searchTreeBytes,
    dataSectionBytes,
    dataRecords,
    emptyRecords,
    values,
  };
}
