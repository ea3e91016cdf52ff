import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { parseMetadata as ParseMetadata } from 'mmdb-lib/lib/metadata.js';
import type { Partition } from '../ranges/partition.js';
import { describeFsError, SourceError } from './source-error.js';
import { walkTrie } from './trie-walker.js';

const require = createRequire(import.meta.url);
// mmdb-lib exposes its data-section decoder only as a CommonJS default export.
interface MmdbDecoder {
  decodeFast(offset: number): { value: unknown };
}
const { default: Decoder } = require('mmdb-lib/lib/decoder.js') as {
  default: new (db: Buffer, baseOffset: number) => MmdbDecoder;
};
const { parseMetadata } = require('mmdb-lib/lib/metadata.js') as { parseMetadata: typeof ParseMetadata };

const METADATA_MARKER = Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1');
const DATA_SECTION_SEPARATOR = 16;
const IPV4_IN_IPV6 = [
  { words: [0, 0, 0, 0], length: 96 },
  { words: [0, 0, 0xffff, 0], length: 96 },
];

export interface MmdbFile {
  path: string;
  ipVersion: number;
  buildEpoch: Date;
  databaseType: string;
  /** Enumerates the file's networks of one family; `valueOf` maps each decoded record to a value id. */
  enumerate(
    family: 4 | 6,
    valueOf: (pointer: number, decode: () => unknown) => number,
    progress?: (fraction: number) => void,
  ): Partition;
  /**
   * Single-address lookup (the lookup engine's ExplainAddress shows the source's own answer):
   * the decoded record and the prefix length of its network within the family, or null.
   */
  lookup(family: 4 | 6, words: Uint32Array): { record: unknown; prefixLength: number } | null;
}

/**
 * Opens a MaxMind DB file. mmdb-lib decodes the data records; the search tree is walked here,
 * because no reader offers "list every network".
 */
export function openMmdb(path: string): MmdbFile {
  let db: Buffer;
  try {
    db = readFileSync(path);
  } catch (error) {
    throw new SourceError(path, describeFsError(error));
  }
  if (db.lastIndexOf(METADATA_MARKER) < 0) throw new SourceError(path, 'not a MaxMind DB file (metadata marker not found)');
  let metadata: ReturnType<typeof parseMetadata>;
  try {
    metadata = parseMetadata(db);
  } catch (error) {
    throw new SourceError(path, `unreadable MaxMind DB metadata (${(error as Error).message})`);
  }
  const { nodeCount, recordSize, searchTreeSize, ipVersion } = metadata;
  if (![24, 28, 32].includes(recordSize)) throw new SourceError(path, `unsupported record size ${recordSize}`);
  if (searchTreeSize + DATA_SECTION_SEPARATOR > db.length)
    throw new SourceError(path, 'file is truncated (search tree exceeds the file)');
  const child =
    recordSize === 24
      ? (node: number, bit: number) => db.readUIntBE(node * 6 + bit * 3, 3)
      : recordSize === 28
        ? (node: number, bit: number) => {
            const at = node * 7;
            return bit === 0
              ? ((db[at + 3] as number) & 0xf0) * 0x100000 + db.readUIntBE(at, 3)
              : ((db[at + 3] as number) & 0x0f) * 0x1000000 + db.readUIntBE(at + 4, 3);
          }
        : (node: number, bit: number) => db.readUInt32BE(node * 8 + bit * 4);
  const decoder = new Decoder(db, searchTreeSize + DATA_SECTION_SEPARATOR);
  const dataLength = db.length - searchTreeSize - DATA_SECTION_SEPARATOR;

  return {
    path,
    ipVersion,
    buildEpoch: metadata.buildEpoch,
    databaseType: metadata.databaseType,
    enumerate(family, valueOf, progress) {
      let startNode = 0;
      if (family === 4 && ipVersion === 6) {
        // IPv4 lives under ::/96 in an IPv6 tree: follow 96 left records.
        for (let i = 0; i < 96 && startNode < nodeCount; i++) startNode = child(startNode, 0);
      } else if (family === 6 && ipVersion === 4) {
        throw new SourceError(path, 'is an IPv4-only database, expected IPv6 networks');
      }
      const partition = walkTrie({
        bits: family === 4 ? 32 : 128,
        nodeCount,
        startNode,
        child,
        // In an IPv6 tree the IPv4 networks (::/96 and its alias ::ffff:0:0/96) belong to the
        // IPv4 table only; the lookup engine maps those addresses to IPv4 itself.
        skip: family === 6 ? IPV4_IN_IPV6 : [],
        leafValue: (pointer) => {
          const offset = pointer - nodeCount - DATA_SECTION_SEPARATOR;
          if (offset < 0 || offset >= dataLength)
            throw new SourceError(path, `data pointer ${pointer} lies outside the data section`);
          return valueOf(offset, () => {
            try {
              return decoder.decodeFast(pointer - nodeCount + searchTreeSize).value;
            } catch (error) {
              throw new SourceError(path, `undecodable data record at ${offset} (${(error as Error).message})`);
            }
          });
        },
        progress: progress && ((visited) => progress(Math.min(1, visited / nodeCount))),
        corrupt: (problem) => {
          throw new SourceError(path, problem);
        },
      });
      progress?.(1);
      return partition;
    },
    lookup(family, words) {
      let node = 0;
      if (family === 4 && ipVersion === 6) for (let i = 0; i < 96 && node < nodeCount; i++) node = child(node, 0);
      else if (family === 6 && ipVersion === 4) return null;
      const bits = family === 4 ? 32 : 128;
      let depth = 0;
      for (; depth < bits && node < nodeCount; depth++) {
        const word = words[depth >>> 5] as number;
        node = child(node, (word >>> (31 - (depth & 31))) & 1);
      }
      // node === nodeCount is the "no data" marker; a larger value points into the data section.
      if (node <= nodeCount) return null;
      try {
        return { record: decoder.decodeFast(node - nodeCount + searchTreeSize).value, prefixLength: depth };
      } catch (error) {
        throw new SourceError(path, `undecodable data record at ${node - nodeCount} (${(error as Error).message})`);
      }
    },
  };
}
