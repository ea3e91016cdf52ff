import { DataSectionWriter, uint16, uint32, uint64, type MmdbValue } from './mmdb-data.js';
import { buildSearchTree, DATA, EMPTY, overlayIpv4Blocks, type RunList } from './search-tree.js';

/** "\xAB\xCD\xEFMaxMind.com": the metadata section starts after its last occurrence. */
export const METADATA_MARKER = Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1');
/** The 16 zero bytes between the search tree and the data section. */
export const DATA_SECTION_SEPARATOR = 16;
export type RecordSize = 24 | 28 | 32;

export interface MmdbContent {
  /** IPv4 runs (one word per start); values dataRecord(id) or EMPTY. */
  ipv4: RunList;
  /** IPv6 runs (four words per start); the IPv4 blocks (::/96, ::ffff:0:0/96, 2002::/16) are replaced. */
  ipv6: RunList;
  /** The data section and each data id's offset in it (encodeValues, or filled while mapping). */
  data: EncodedData;
  databaseType: string;
  description: Record<string, string>;
  languages: readonly string[];
  /** Seconds since the epoch (the dataset's builtAt, not the wall clock: builds are reproducible). */
  buildEpoch: number;
  /** Forced record size (tests); otherwise the smallest that fits. */
  recordSize?: RecordSize;
}

export interface MmdbStats {
  nodeCount: number;
  recordSize: RecordSize;
  /** Tree records pointing at data: the networks (CIDR blocks) with data, aliases not counted. */
  networks: number;
  dataSectionBytes: number;
  /** IPv6 runs with data under ::/96, ::ffff:0:0/96 or 2002::/16, replaced by the IPv4 subtree. */
  shadowedIpv6Runs: number;
  size: number;
}

export interface EncodedData {
  section: DataSectionWriter;
  offsets: ArrayLike<number>;
}

/** A data section holding `values` (deduplicated), data id = index. */
export function encodeValues(values: readonly MmdbValue[]): EncodedData {
  const section = new DataSectionWriter(true);
  return { section, offsets: values.map((value) => section.add(value)) };
}

export interface ByteSink {
  writeBytes(bytes: Uint8Array): void;
}

const NODES_PER_CHUNK = 1 << 16;

/**
 * Writes a MaxMind DB file (format 2.0, ip_version 6) into `sink`: the search tree streamed in
 * chunks from the typed arrays, the 16-byte separator, the data section (deduplicated), the
 * metadata marker and the metadata map.
 */
export function writeMmdb(sink: ByteSink, content: MmdbContent, progress?: (fraction: number) => void): MmdbStats {
  const { runs: ipv6, shadowedRuns } = overlayIpv4Blocks(content.ipv6);
  const tree = buildSearchTree(ipv6, content.ipv4);
  progress?.(0.4);

  const { section, offsets } = content.data;
  progress?.(0.7);

  const { nodeCount, records } = tree;
  const largest = nodeCount + DATA_SECTION_SEPARATOR + section.size;
  const recordSize = content.recordSize ?? (largest < 2 ** 24 ? 24 : largest < 2 ** 28 ? 28 : 32);
  if (largest >= 2 ** recordSize) {
    throw new Error(`the MMDB needs records of more than ${recordSize} bits (${nodeCount} nodes, ${section.size} data bytes)`);
  }

  // Tagged tree values → record values: node ids stay, EMPTY → node_count, data → after the separator.
  let networks = 0;
  const resolve = (value: number): number => {
    if (value === EMPTY) return nodeCount;
    if (value >= DATA) {
      networks++;
      return nodeCount + DATA_SECTION_SEPARATOR + (offsets[(value - DATA) >>> 0] as number);
    }
    return value;
  };
  const nodeBytes = recordSize / 4;
  let size = 0;
  for (let first = 0; first < nodeCount; first += NODES_PER_CHUNK) {
    const last = Math.min(nodeCount, first + NODES_PER_CHUNK);
    const chunk = Buffer.alloc((last - first) * nodeBytes);
    for (let n = first, at = 0; n < last; n++, at += nodeBytes) {
      writeNode(chunk, at, recordSize, resolve(records[2 * n] as number), resolve(records[2 * n + 1] as number));
    }
    sink.writeBytes(chunk);
    size += chunk.length;
  }
  progress?.(0.9);

  sink.writeBytes(Buffer.alloc(DATA_SECTION_SEPARATOR));
  sink.writeBytes(section.view());
  const metadata = new DataSectionWriter(false);
  metadata.add({
    binary_format_major_version: uint16(2),
    binary_format_minor_version: uint16(0),
    build_epoch: uint64(content.buildEpoch),
    database_type: content.databaseType,
    description: content.description,
    ip_version: uint16(6),
    languages: [...content.languages],
    node_count: uint32(nodeCount),
    record_size: uint16(recordSize),
  });
  sink.writeBytes(METADATA_MARKER);
  sink.writeBytes(metadata.view());
  size += DATA_SECTION_SEPARATOR + section.size + METADATA_MARKER.length + metadata.size;
  progress?.(1);
  return { nodeCount, recordSize, networks, dataSectionBytes: section.size, shadowedIpv6Runs: shadowedRuns, size };
}

/** One node: two big-endian records (28 bits: the high nibbles of both share the middle byte). */
function writeNode(out: Buffer, at: number, recordSize: RecordSize, left: number, right: number): void {
  if (recordSize === 24) {
    out.writeUIntBE(left, at, 3);
    out.writeUIntBE(right, at + 3, 3);
  } else if (recordSize === 28) {
    out.writeUIntBE(left & 0xffffff, at, 3);
    out[at + 3] = (((left >>> 24) & 0x0f) << 4) | ((right >>> 24) & 0x0f);
    out.writeUIntBE(right & 0xffffff, at + 4, 3);
  } else {
    out.writeUInt32BE(left >>> 0, at);
    out.writeUInt32BE(right >>> 0, at + 4);
  }
}
