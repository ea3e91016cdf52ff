/**
 * Writers for tiny but real source files (MaxMind DB, IPIP.net ipdb, ASN CSV), so tests can run
 * the whole build on inputs they fully control. Test support only: nothing in the build uses it.
 */
import { writeFileSync } from 'node:fs';
import { parseIpv4, parseIpv6 } from '@ipdata/common/ip';

interface TrieNode {
  children: [TrieNode | number | null, TrieNode | number | null];
}

/** A network "a.b.c.d/n" or "x::/n" as its bits. */
function prefixBits(cidr: string, ipv4InIpv6: 'none' | 'compat' | 'mapped'): number[] {
  const [address = '', lengthText = ''] = cidr.split('/');
  const length = Number(lengthText);
  const bits: number[] = [];
  const v4 = parseIpv4(address);
  if (v4 >= 0) {
    if (ipv4InIpv6 === 'compat') bits.push(...new Array<number>(96).fill(0));
    if (ipv4InIpv6 === 'mapped') bits.push(...new Array<number>(80).fill(0), ...new Array<number>(16).fill(1));
    for (let i = 0; i < length; i++) bits.push((v4 >>> (31 - i)) & 1);
    return bits;
  }
  const words = new Uint32Array(4);
  if (!parseIpv6(address, words)) throw new Error(`bad network ${cidr}`);
  for (let i = 0; i < length; i++) bits.push(((words[i >>> 5] as number) >>> (31 - (i & 31))) & 1);
  return bits;
}

/** Builds a binary trie whose leaves are value indexes; returns nodes in numbering order. */
function buildTrie(networks: ReadonlyArray<{ bits: number[]; value: number }>): TrieNode[] {
  const root: TrieNode = { children: [null, null] };
  for (const { bits, value } of networks) {
    let node = root;
    bits.forEach((bit, i) => {
      const side = bit as 0 | 1;
      if (i === bits.length - 1) {
        node.children[side] = value;
        return;
      }
      let next = node.children[side];
      if (typeof next !== 'object' || next === null) {
        // A leaf on the way is pushed down into both halves of the new node.
        const inherited = typeof next === 'number' ? next : null;
        next = { children: [inherited, inherited] };
        node.children[side] = next;
      }
      node = next;
    });
  }
  const nodes: TrieNode[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const node = queue.shift() as TrieNode;
    nodes.push(node);
    for (const child of node.children) if (typeof child === 'object' && child !== null) queue.push(child);
  }
  return nodes;
}

function nodeIndexes(nodes: TrieNode[]): Map<TrieNode, number> {
  return new Map(nodes.map((node, i) => [node, i]));
}

// ---- MaxMind DB ----

function control(type: number, size: number): Buffer {
  const sizeBytes: number[] = [];
  let sizeBits = size;
  if (size >= 29) {
    if (size > 284) throw new Error('value too long for the test writer');
    sizeBits = 29;
    sizeBytes.push(size - 29);
  }
  return type <= 7 ? Buffer.from([(type << 5) | sizeBits, ...sizeBytes]) : Buffer.from([sizeBits, type - 7, ...sizeBytes]);
}

type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue } | { uint: number };

function encodeMmdb(value: MmdbValue): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number') {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(3, 8), bytes]);
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encodeMmdb)]);
  if ('uint' in value && typeof value.uint === 'number') {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value.uint);
    return Buffer.concat([control(6, 4), bytes]);
  }
  const entries = Object.entries(value as Record<string, MmdbValue>);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, item]) => [encodeMmdb(key), encodeMmdb(item)])]);
}

/**
 * The trie as node records of two big-endian children each, as both MaxMind DB and ipdb store it:
 * a child node's index, node_count for "no data", or node_count + dataBase + the offset of the
 * value's data.
 */
function serializeTrie(nodes: TrieNode[], offsets: readonly number[], childBytes: 3 | 4, dataBase: number): Buffer {
  const index = nodeIndexes(nodes);
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * childBytes * 2);
  nodes.forEach((node, n) => {
    node.children.forEach((child, side) => {
      const value =
        child === null
          ? nodeCount
          : typeof child === 'number'
            ? nodeCount + dataBase + (offsets[child] as number)
            : (index.get(child) as number);
      tree.writeUIntBE(value, (n * 2 + side) * childBytes, childBytes);
    });
  });
  return tree;
}

/** Writes a MaxMind DB (24-bit records) holding `networks` → record maps of strings and numbers. */
export function writeMmdb(
  path: string,
  ipVersion: 4 | 6,
  networks: ReadonlyArray<{ network: string; record: Record<string, string | number> }>,
): void {
  const data: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const { record } of networks) {
    offsets.push(size);
    const bytes = encodeMmdb(record);
    data.push(bytes);
    size += bytes.length;
  }
  const nodes = buildTrie(
    networks.map(({ network }, value) => ({ bits: prefixBits(network, ipVersion === 6 ? 'compat' : 'none'), value })),
  );
  const nodeCount = nodes.length;
  // Data pointers skip the 16-byte separator after the tree (MaxMind DB format).
  const tree = serializeTrie(nodes, offsets, 3, 16);
  const metadata = encodeMmdb({
    binary_format_major_version: { uint: 2 },
    binary_format_minor_version: { uint: 0 },
    build_epoch: { uint: 1_750_000_000 },
    database_type: 'synthetic-city',
    description: { en: 'test data' },
    ip_version: { uint: ipVersion },
    languages: ['en'],
    node_count: { uint: nodeCount },
    record_size: { uint: 24 },
  });
  writeFileSync(
    path,
    Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), metadata]),
  );
}

// ---- IPIP.net ipdb ----

export const IPDB_FIELDS = [
  'country_name',
  'region_name',
  'city_name',
  'district_name',
  'owner_domain',
  'isp_domain',
  'country_code',
  'continent_code',
];

/** Writes an ipdb file (IPv4 + IPv6 trie, IPv4 under ::ffff:0:0/96) with records of IPDB_FIELDS values. */
export function writeIpdb(path: string, networks: ReadonlyArray<{ network: string; fields: string[] }>): void {
  const records: Buffer[] = [Buffer.from([0, 0])]; // padding, so no data pointer equals node_count
  const offsets: number[] = [];
  let size = 2;
  for (const { fields } of networks) {
    const text = Buffer.from(fields.join('\t'), 'utf8');
    const record = Buffer.concat([Buffer.from([text.length >> 8, text.length & 255]), text]);
    offsets.push(size);
    records.push(record);
    size += record.length;
  }
  const nodes = buildTrie(networks.map(({ network }, value) => ({ bits: prefixBits(network, 'mapped'), value })));
  const nodeCount = nodes.length;
  const tree = serializeTrie(nodes, offsets, 4, 0);
  const body = Buffer.concat([tree, ...records]);
  const meta = Buffer.from(
    JSON.stringify({
      build: 1_750_000_000,
      ip_version: 3,
      languages: { CN: 0 },
      fields: IPDB_FIELDS,
      node_count: nodeCount,
      total_size: body.length,
    }),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32BE(meta.length);
  writeFileSync(path, Buffer.concat([length, meta, body]));
}
