import { createHash } from 'node:crypto';
import {
  ASN_PREFIX_V4_WORDS,
  ASN_PREFIX_V6_WORDS,
  ASN_ROW_WORDS,
  CHECKSUM_BYTES,
  FIXED_HEADER_BYTES,
  FORMAT_VERSION,
  MAGIC,
  NONE,
  SECTION_ALIGNMENT,
  SECTION_ENTRY_BYTES,
  STRING_FIELDS,
  STRING_FIELD_COUNT,
  SectionId,
  type DatasetHeader,
  type SourceInfo,
  type StringField,
} from './dataset-layout.js';

export interface DatasetRecord {
  /** Missing, null and empty strings are all stored as "no value". */
  fields: Partial<Record<StringField, string | null>>;
  /** 0 or null: no ASN. */
  asn: number | null;
  latitude: number | null;
  longitude: number | null;
  /** FLAG bits. */
  flags: number;
}

export interface AsnEntry {
  asn: number;
  name: string | null;
  organization: string | null;
  countryCode: string | null;
  usageType: string | null;
  /** [network address as u32, prefix length] */
  prefixesV4: ReadonlyArray<readonly [number, number]>;
  /** [four big-endian 32-bit words, prefix length] */
  prefixesV6: ReadonlyArray<readonly [readonly [number, number, number, number], number]>;
}

/** A complete partition of an address space: range i covers starts[i] .. starts[i + 1] - 1. */
export interface RangeTable {
  /** IPv4: one word per range; IPv6: four big-endian words per range. starts[0] is address 0. */
  starts: Uint32Array;
  /** Record index per range, NONE where no source has data. */
  records: Uint32Array;
}

export interface DatasetContent {
  datasetVersion: string;
  builtAt: Date;
  sources: SourceInfo[];
  records: readonly DatasetRecord[];
  ipv4: RangeTable;
  ipv6: RangeTable;
  asns: readonly AsnEntry[];
}

/** Interns strings in order of first use, so the same input always gives the same table. */
class StringTable {
  private readonly index = new Map<string, number>();
  readonly values: string[] = [];

  id(value: string | null | undefined): number {
    if (value === null || value === undefined || value === '') return NONE;
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.index.set(value, id);
    }
    return id;
  }

  encode(): Uint8Array {
    const encoder = new TextEncoder();
    const encoded = this.values.map((value) => encoder.encode(value));
    const blobLength = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
    const headerWords = 1 + encoded.length + 1;
    const out = new Uint8Array(headerWords * 4 + blobLength);
    const words = new DataView(out.buffer);
    words.setUint32(0, encoded.length, true);
    let offset = 0;
    encoded.forEach((bytes, i) => {
      words.setUint32((1 + i) * 4, offset, true);
      out.set(bytes, headerWords * 4 + offset);
      offset += bytes.length;
    });
    words.setUint32((1 + encoded.length) * 4, offset, true);
    return out;
  }
}

function validateRanges(name: string, table: RangeTable, wordsPerAddress: number, recordCount: number): void {
  const count = table.records.length;
  if (table.starts.length !== count * wordsPerAddress) throw new Error(`${name}: starts and records lengths disagree`);
  if (count === 0) throw new Error(`${name}: no ranges`);
  for (let w = 0; w < wordsPerAddress; w++) {
    if (table.starts[w] !== 0) throw new Error(`${name}: the first range must start at address 0`);
  }
  for (let i = 1; i < count; i++) {
    if (compareAddresses(table.starts, (i - 1) * wordsPerAddress, i * wordsPerAddress, wordsPerAddress) >= 0) {
      throw new Error(`${name}: range starts are not strictly ascending at range ${i}`);
    }
    const record = table.records[i] as number;
    if (record !== NONE && record >= recordCount) throw new Error(`${name}: range ${i} points past the record table`);
  }
}

function compareAddresses(starts: Uint32Array, a: number, b: number, words: number): number {
  for (let w = 0; w < words; w++) {
    const x = starts[a + w] as number;
    const y = starts[b + w] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * Serialises a dataset into the binary format: little-endian, 8-byte aligned sections, SHA-256
 * of everything before it as the last 32 bytes. Deterministic: the same content gives the same
 * bytes (strings are interned in record order, the header JSON has a fixed key order).
 */
export function encodeDataset(content: DatasetContent): Buffer {
  validateRanges('ipv4', content.ipv4, 1, content.records.length);
  validateRanges('ipv6', content.ipv6, 4, content.records.length);

  const strings = new StringTable();
  const recordCount = content.records.length;
  const recordStrings = new Uint32Array(recordCount * STRING_FIELD_COUNT);
  const recordAsn = new Uint32Array(recordCount);
  const recordCoordinates = new Float32Array(recordCount * 2);
  const recordFlags = new Uint8Array(recordCount);
  content.records.forEach((record, r) => {
    STRING_FIELDS.forEach((field, f) => {
      recordStrings[r * STRING_FIELD_COUNT + f] = strings.id(record.fields[field]);
    });
    recordAsn[r] = record.asn ?? 0;
    recordCoordinates[r * 2] = record.latitude ?? Number.NaN;
    recordCoordinates[r * 2 + 1] = record.longitude ?? Number.NaN;
    recordFlags[r] = record.flags;
  });

  const asns = [...content.asns].sort((a, b) => a.asn - b.asn);
  const asnTable = new Uint32Array(asns.length * ASN_ROW_WORDS);
  const v4Count = asns.reduce((sum, entry) => sum + entry.prefixesV4.length, 0);
  const v6Count = asns.reduce((sum, entry) => sum + entry.prefixesV6.length, 0);
  const prefixesV4 = new Uint32Array(v4Count * ASN_PREFIX_V4_WORDS);
  const prefixesV6 = new Uint32Array(v6Count * ASN_PREFIX_V6_WORDS);
  let v4 = 0;
  let v6 = 0;
  asns.forEach((entry, i) => {
    asnTable.set(
      [
        entry.asn,
        strings.id(entry.name),
        strings.id(entry.organization),
        strings.id(entry.countryCode),
        strings.id(entry.usageType),
        v4,
        entry.prefixesV4.length,
        v6,
        entry.prefixesV6.length,
      ],
      i * ASN_ROW_WORDS,
    );
    for (const [address, length] of entry.prefixesV4) {
      prefixesV4.set([address, length], v4 * ASN_PREFIX_V4_WORDS);
      v4++;
    }
    for (const [words, length] of entry.prefixesV6) {
      prefixesV6.set([...words, length], v6 * ASN_PREFIX_V6_WORDS);
      v6++;
    }
  });

  const sections: Array<[SectionId, Uint8Array]> = [
    [SectionId.Strings, strings.encode()],
    [SectionId.RecordStrings, bytesOf(recordStrings)],
    [SectionId.RecordAsn, bytesOf(recordAsn)],
    [SectionId.RecordCoordinates, bytesOf(recordCoordinates)],
    [SectionId.RecordFlags, recordFlags],
    [SectionId.Ipv4Starts, bytesOf(content.ipv4.starts)],
    [SectionId.Ipv4Records, bytesOf(content.ipv4.records)],
    [SectionId.Ipv6Starts, bytesOf(content.ipv6.starts)],
    [SectionId.Ipv6Records, bytesOf(content.ipv6.records)],
    [SectionId.AsnTable, bytesOf(asnTable)],
    [SectionId.AsnPrefixesV4, bytesOf(prefixesV4)],
    [SectionId.AsnPrefixesV6, bytesOf(prefixesV6)],
  ];

  const header: DatasetHeader = {
    datasetVersion: content.datasetVersion,
    builtAt: content.builtAt.toISOString(),
    sources: content.sources.map(({ name, version, licence }) => ({ name, version, licence })),
    stringFields: [...STRING_FIELDS],
    counts: {
      strings: strings.values.length,
      records: recordCount,
      ipv4Ranges: content.ipv4.records.length,
      ipv6Ranges: content.ipv6.records.length,
      asns: asns.length,
    },
  };
  const headerJson = new TextEncoder().encode(JSON.stringify(header));
  const align = (n: number) => Math.ceil(n / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;

  let offset = align(FIXED_HEADER_BYTES + sections.length * SECTION_ENTRY_BYTES + headerJson.length);
  const placed = sections.map(([id, bytes]) => {
    const at = offset;
    offset = align(offset + bytes.length);
    return { id, bytes, at };
  });
  const fileLength = offset + CHECKSUM_BYTES;
  const out = Buffer.alloc(fileLength);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 8);
  out.writeUInt32LE(headerJson.length, 12);
  out.writeBigUInt64LE(BigInt(fileLength), 16);
  out.writeUInt32LE(sections.length, 24);
  placed.forEach(({ id, bytes, at }, i) => {
    const entry = FIXED_HEADER_BYTES + i * SECTION_ENTRY_BYTES;
    out.writeUInt32LE(id, entry);
    out.writeUInt32LE(0, entry + 4);
    out.writeBigUInt64LE(BigInt(at), entry + 8);
    out.writeBigUInt64LE(BigInt(bytes.length), entry + 16);
    out.set(bytes, at);
  });
  out.set(headerJson, FIXED_HEADER_BYTES + sections.length * SECTION_ENTRY_BYTES);
  createHash('sha256')
    .update(out.subarray(0, fileLength - CHECKSUM_BYTES))
    .digest()
    .copy(out, fileLength - CHECKSUM_BYTES);
  return out;
}
