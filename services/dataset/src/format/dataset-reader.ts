import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import {
  ASN_PREFIX_V4_WORDS,
  ASN_PREFIX_V6_WORDS,
  ASN_ROW_WORDS,
  CHECKSUM_BYTES,
  DatasetFormatError,
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
} from './dataset-layout.js';
import type { DatasetRecord } from './dataset-writer.js';

/** A loaded dataset: typed-array views over the file's bytes, no copies beyond alignment. */
export interface DatasetView {
  header: DatasetHeader;
  strings: readonly string[];
  recordStrings: Uint32Array;
  recordAsn: Uint32Array;
  recordCoordinates: Float32Array;
  recordFlags: Uint8Array;
  ipv4Starts: Uint32Array;
  ipv4Records: Uint32Array;
  ipv6Starts: Uint32Array;
  ipv6Records: Uint32Array;
  asnTable: Uint32Array;
  asnPrefixesV4: Uint32Array;
  asnPrefixesV6: Uint32Array;
}

function fail(message: string): never {
  throw new DatasetFormatError(message);
}

function decodeStrings(bytes: Uint8Array): string[] {
  if (bytes.byteLength < 8) fail('string table is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const blobStart = (count + 2) * 4;
  if (blobStart > bytes.byteLength) fail('string table is truncated');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const strings = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const from = view.getUint32((1 + i) * 4, true);
    const to = view.getUint32((2 + i) * 4, true);
    if (to < from || blobStart + to > bytes.byteLength) fail(`string ${i} lies outside the string table`);
    strings[i] = decoder.decode(bytes.subarray(blobStart + from, blobStart + to));
  }
  return strings;
}

/**
 * Opens a dataset file's bytes. Refuses anything that is not a complete, intact file of a
 * supported format version: bad magic, unknown version, wrong length (truncated), checksum
 * mismatch, sections out of bounds or of inconsistent sizes, unsorted ranges.
 */
export function openDataset(input: Uint8Array): DatasetView {
  if (endianness() !== 'LE') fail('dataset files are little-endian; this host is big-endian');
  if (input.byteLength < FIXED_HEADER_BYTES + CHECKSUM_BYTES) fail('file is too short to be a dataset');
  // Typed-array views need aligned offsets; a Buffer from a pool may not be.
  const bytes = input.byteOffset % SECTION_ALIGNMENT === 0 ? input : new Uint8Array(input);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.toString('latin1', 0, 8) !== MAGIC) fail('bad magic: not an ipdata dataset file');
  const version = buffer.readUInt32LE(8);
  if (version !== FORMAT_VERSION) fail(`unsupported format version ${version} (this reader knows ${FORMAT_VERSION})`);
  const declaredLength = Number(buffer.readBigUInt64LE(16));
  if (declaredLength !== buffer.byteLength) {
    fail(`file length ${buffer.byteLength} does not match the header (${declaredLength}): truncated or padded`);
  }
  const body = buffer.subarray(0, buffer.byteLength - CHECKSUM_BYTES);
  const digest = createHash('sha256').update(body).digest();
  if (!digest.equals(buffer.subarray(buffer.byteLength - CHECKSUM_BYTES))) fail('checksum mismatch: the file is corrupted');

  const headerLength = buffer.readUInt32LE(12);
  const sectionCount = buffer.readUInt32LE(24);
  const jsonStart = FIXED_HEADER_BYTES + sectionCount * SECTION_ENTRY_BYTES;
  if (jsonStart + headerLength > body.byteLength) fail('header lies outside the file');
  let header: DatasetHeader;
  try {
    header = JSON.parse(buffer.toString('utf8', jsonStart, jsonStart + headerLength)) as DatasetHeader;
  } catch {
    fail('header JSON is not valid');
  }
  if (header.stringFields.join(',') !== STRING_FIELDS.join(',')) fail('record fields differ from this reader');

  const sections = new Map<number, { at: number; length: number }>();
  for (let i = 0; i < sectionCount; i++) {
    const entry = FIXED_HEADER_BYTES + i * SECTION_ENTRY_BYTES;
    const at = Number(buffer.readBigUInt64LE(entry + 8));
    const length = Number(buffer.readBigUInt64LE(entry + 16));
    if (at % SECTION_ALIGNMENT !== 0 || at + length > body.byteLength)
      fail(`section ${buffer.readUInt32LE(entry)} is out of bounds`);
    sections.set(buffer.readUInt32LE(entry), { at, length });
  }
  const section = (id: SectionId) => sections.get(id) ?? fail(`section ${SectionId[id]} is missing`);
  const u32 = (id: SectionId, words: number) => {
    const { at, length } = section(id);
    if (length !== words * 4) fail(`section ${SectionId[id]} has ${length} bytes, expected ${words * 4}`);
    return new Uint32Array(bytes.buffer, bytes.byteOffset + at, words);
  };

  const { counts } = header;
  const strings = section(SectionId.Strings);
  const coordinates = section(SectionId.RecordCoordinates);
  if (coordinates.length !== counts.records * 8) fail('section RecordCoordinates has the wrong size');
  const flags = section(SectionId.RecordFlags);
  if (flags.length !== counts.records) fail('section RecordFlags has the wrong size');
  const asnTable = u32(SectionId.AsnTable, counts.asns * ASN_ROW_WORDS);
  const v4Prefixes = section(SectionId.AsnPrefixesV4).length / 4;
  const v6Prefixes = section(SectionId.AsnPrefixesV6).length / 4;
  if (v4Prefixes % ASN_PREFIX_V4_WORDS !== 0 || v6Prefixes % ASN_PREFIX_V6_WORDS !== 0) fail('ASN prefix sections are torn');

  const view: DatasetView = {
    header,
    strings: decodeStrings(bytes.subarray(strings.at, strings.at + strings.length)),
    recordStrings: u32(SectionId.RecordStrings, counts.records * STRING_FIELD_COUNT),
    recordAsn: u32(SectionId.RecordAsn, counts.records),
    recordCoordinates: new Float32Array(bytes.buffer, bytes.byteOffset + coordinates.at, counts.records * 2),
    recordFlags: new Uint8Array(bytes.buffer, bytes.byteOffset + flags.at, counts.records),
    ipv4Starts: u32(SectionId.Ipv4Starts, counts.ipv4Ranges),
    ipv4Records: u32(SectionId.Ipv4Records, counts.ipv4Ranges),
    ipv6Starts: u32(SectionId.Ipv6Starts, counts.ipv6Ranges * 4),
    ipv6Records: u32(SectionId.Ipv6Records, counts.ipv6Ranges),
    asnTable,
    asnPrefixesV4: u32(SectionId.AsnPrefixesV4, v4Prefixes),
    asnPrefixesV6: u32(SectionId.AsnPrefixesV6, v6Prefixes),
  };
  if (view.strings.length !== counts.strings) fail('string count differs from the header');
  checkRanges('ipv4', view.ipv4Starts, view.ipv4Records, 1, counts.records);
  checkRanges('ipv6', view.ipv6Starts, view.ipv6Records, 4, counts.records);
  return view;
}

/** One record back as the writer's input shape (round trips, CSV export, tests). */
export function decodeRecord(view: DatasetView, index: number): DatasetRecord {
  const fields: DatasetRecord['fields'] = {};
  STRING_FIELDS.forEach((field, f) => {
    const id = view.recordStrings[index * STRING_FIELD_COUNT + f] as number;
    fields[field] = id === NONE ? null : (view.strings[id] ?? null);
  });
  const latitude = view.recordCoordinates[index * 2] as number;
  const longitude = view.recordCoordinates[index * 2 + 1] as number;
  const asn = view.recordAsn[index] as number;
  return {
    fields,
    asn: asn === 0 ? null : asn,
    latitude: Number.isNaN(latitude) ? null : latitude,
    longitude: Number.isNaN(longitude) ? null : longitude,
    flags: view.recordFlags[index] as number,
  };
}

function checkRanges(name: string, starts: Uint32Array, records: Uint32Array, words: number, recordCount: number): void {
  if (records.length === 0) fail(`${name}: no ranges`);
  for (let w = 0; w < words; w++) if (starts[w] !== 0) fail(`${name}: first range does not start at address 0`);
  for (let i = 1; i < records.length; i++) {
    const record = records[i] as number;
    if (record !== NONE && record >= recordCount) fail(`${name}: range ${i} points past the record table`);
    let order = 0;
    for (let w = 0; w < words && order === 0; w++) {
      const a = starts[(i - 1) * words + w] as number;
      const b = starts[i * words + w] as number;
      order = a < b ? -1 : a > b ? 1 : 0;
    }
    if (order >= 0) fail(`${name}: range starts are not ascending at range ${i}`);
  }
}
