import { readFileSync } from 'node:fs';
import type { Partition } from '../ranges/partition.js';
import { describeFsError, SourceError } from './source-error.js';
import { walkTrie } from './trie-walker.js';

/** The JSON meta block at the start of an IPIP.net ipdb file. */
export interface IpdbMeta {
  build: number;
  ip_version: number;
  languages: Record<string, number>;
  fields: string[];
  node_count: number;
  total_size: number;
}

export interface IpdbFile {
  path: string;
  meta: IpdbMeta;
  /** The fields of one data record in the given language, by field name. */
  record(pointer: number, language?: string): Record<string, string>;
  /** Enumerates every range of one family; `valueOf` maps a data pointer to a value id. */
  enumerate(family: 4 | 6, valueOf: (pointer: number) => number, progress?: (fraction: number) => void): Partition;
  /** Direct trie lookup (tests cross-check the enumeration with it): the data pointer or null. */
  lookup(family: 4 | 6, words: Uint32Array): number | null;
  /** lookup() with the prefix length of the network holding the address (within the family). */
  find(family: 4 | 6, words: Uint32Array): { pointer: number; prefixLength: number } | null;
}

const IPV4_FLAG = 0x01;
const IPV6_FLAG = 0x02;
const IPV4_MAPPED = [{ words: [0, 0, 0xffff, 0], length: 96 }];

/**
 * Reader for IPIP.net's ipdb format: 4-byte big-endian meta length, JSON meta, a binary trie
 * of node_count nodes of two 4-byte big-endian records, then the data records (2-byte length +
 * UTF-8 text, fields separated by "\t", one block of fields per language). In a file holding
 * both families the IPv4 space is the subtree ::ffff:0:0/96 of the IPv6 trie.
 */
export function openIpdb(path: string): IpdbFile {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    throw new SourceError(path, describeFsError(error));
  }
  const fail = (problem: string): never => {
    throw new SourceError(path, problem);
  };
  if (file.length < 4) fail('file is too short to be an ipdb database');
  const metaLength = file.readUInt32BE(0);
  if (metaLength < 2 || 4 + metaLength > file.length) fail(`meta length ${metaLength} does not fit the file`);
  let meta: IpdbMeta;
  try {
    meta = JSON.parse(file.toString('utf8', 4, 4 + metaLength)) as IpdbMeta;
  } catch {
    return fail('meta block is not valid JSON: not an ipdb database');
  }
  if (!Number.isInteger(meta.node_count) || meta.node_count <= 0) fail('meta node_count is missing or invalid');
  if (!Array.isArray(meta.fields) || meta.fields.length === 0) fail('meta fields are missing');
  if (typeof meta.languages !== 'object' || meta.languages === null) fail('meta languages are missing');
  const body = file.subarray(4 + metaLength);
  if (body.length !== meta.total_size)
    fail(`file holds ${body.length} bytes after the meta, meta total_size says ${meta.total_size}`);
  const nodeCount = meta.node_count;
  if (nodeCount * 8 > body.length) fail('search tree exceeds the file (truncated)');

  const child = (node: number, bit: number) => body.readUInt32BE(node * 8 + bit * 4);
  const dataOffset = (pointer: number) => {
    const at = pointer - nodeCount + nodeCount * 8;
    if (at + 2 > body.length) fail(`data pointer ${pointer} lies outside the file`);
    return at;
  };
  // IPv4 starts at ::ffff:0:0/96 when the trie holds both families, at the root otherwise.
  const v4Start = () => {
    if ((meta.ip_version & IPV6_FLAG) === 0) return 0;
    let node = 0;
    for (let i = 0; i < 96 && node < nodeCount; i++) node = child(node, i >= 80 ? 1 : 0);
    return node;
  };

  const find = (family: 4 | 6, words: Uint32Array): { pointer: number; prefixLength: number } | null => {
    if ((meta.ip_version & (family === 4 ? IPV4_FLAG : IPV6_FLAG)) === 0) return null;
    let node = family === 4 ? v4Start() : 0;
    const bits = family === 4 ? 32 : 128;
    let depth = 0;
    for (; depth < bits && node < nodeCount; depth++) {
      const word = words[depth >>> 5] as number;
      node = child(node, (word >>> (31 - (depth & 31))) & 1);
    }
    return node > nodeCount ? { pointer: node, prefixLength: depth } : null;
  };

  return {
    path,
    meta,
    record(pointer, language = 'CN') {
      const at = dataOffset(pointer);
      const size = body.readUInt16BE(at);
      if (at + 2 + size > body.length) fail(`data record at ${pointer} runs past the end of the file`);
      const parts = body.toString('utf8', at + 2, at + 2 + size).split('\t');
      const base = meta.languages[language] ?? fail(`language ${language} is not in the meta`);
      const fields: Record<string, string> = {};
      meta.fields.forEach((name, i) => {
        fields[name] = parts[base + i] ?? '';
      });
      return fields;
    },
    enumerate(family, valueOf, progress) {
      const flag = family === 4 ? IPV4_FLAG : IPV6_FLAG;
      if ((meta.ip_version & flag) === 0) fail(`holds no IPv${family} data (meta ip_version ${meta.ip_version})`);
      const partition = walkTrie({
        bits: family === 4 ? 32 : 128,
        nodeCount,
        startNode: family === 4 ? v4Start() : 0,
        child: (node, bit) => {
          const value = child(node, bit);
          if (value > nodeCount && value - nodeCount + nodeCount * 8 >= body.length)
            fail(`data pointer ${value} lies outside the file`);
          return value;
        },
        leafValue: valueOf,
        // The IPv4-mapped subtree is the IPv4 table's data, not IPv6's.
        skip: family === 6 ? IPV4_MAPPED : [],
        progress: progress && ((visited) => progress(Math.min(1, visited / nodeCount))),
        corrupt: fail,
      });
      progress?.(1);
      return partition;
    },
    lookup: (family, words) => find(family, words)?.pointer ?? null,
    find,
  };
}
