import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bigIntToWords,
  forEachIpv4Cidr,
  forEachIpv6Cidr,
  formatIpv4,
  formatIpv6,
  parseIpv4,
  parseIpv6,
  wordsToBigInt,
} from '@ipdata/common/ip';
import fc from 'fast-check';
import { Reader } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { HashedFile } from '../hashed-file.js';
import { MmdbUint, uint16, uint32, uint64, type MmdbValue } from './mmdb-data.js';
import { verifyMmdb } from './mmdb-verify.js';
import { encodeValues, writeMmdb, type MmdbContent, type RecordSize } from './mmdb-writer.js';
import { dataRecord, EMPTY, type RunList } from './search-tree.js';

/** A range with data: first..last (IPv4 numbers or IPv6 bigints), the data id. */
type V4Range = { first: number; last: number; id: number };
type V6Range = { first: bigint; last: bigint; id: number };

/** Sorted, disjoint ranges → a run list covering the whole space (gaps are EMPTY). */
function v4Runs(ranges: readonly V4Range[]): RunList {
  const starts: number[] = [];
  const values: number[] = [];
  const run = (start: number, value: number) => {
    starts.push(start);
    values.push(value);
  };
  let next = 0;
  for (const { first, last, id } of ranges) {
    if (first > next) run(next, EMPTY);
    run(first, dataRecord(id));
    next = last + 1;
  }
  if (next <= 0xffffffff && (values.length === 0 || next > 0)) run(next, EMPTY);
  if (starts[0] !== 0) {
    starts.unshift(0);
    values.unshift(EMPTY);
  }
  return { words: 1, starts: Uint32Array.from(starts), values: Uint32Array.from(values) };
}

const TOP6 = (1n << 128n) - 1n;
function v6Runs(ranges: readonly V6Range[]): RunList {
  const starts: bigint[] = [];
  const values: number[] = [];
  const run = (start: bigint, value: number) => {
    starts.push(start);
    values.push(value);
  };
  let next = 0n;
  for (const { first, last, id } of ranges) {
    if (first > next) run(next, EMPTY);
    run(first, dataRecord(id));
    next = last + 1n;
  }
  if (next <= TOP6) run(next, EMPTY);
  if (starts[0] !== 0n) {
    starts.unshift(0n);
    values.unshift(EMPTY);
  }
  const words = new Uint32Array(starts.length * 4);
  starts.forEach((start, i) => bigIntToWords(start, words.subarray(i * 4, i * 4 + 4)));
  return { words: 4, starts: words, values: Uint32Array.from(values) };
}

const v4 = (text: string) => parseIpv4(text);
const v6 = (text: string) => {
  const words = new Uint32Array(4);
  if (!parseIpv6(text, words)) throw new Error(`bad address ${text}`);
  return wordsToBigInt(words);
};
const v6Text = (value: bigint) => {
  const words = new Uint32Array(4);
  bigIntToWords(value, words);
  return formatIpv6(words);
};

let folder: string | undefined;
type TestContent = Omit<MmdbContent, 'databaseType' | 'description' | 'languages' | 'buildEpoch' | 'data'> & {
  data: readonly MmdbValue[];
};
function write({ data, ...content }: TestContent) {
  folder ??= mkdtempSync(join(tmpdir(), 'mmdb-writer-'));
  const path = join(folder, `test-${Math.random().toString(36).slice(2)}.mmdb`);
  const file = new HashedFile(path, 'test.mmdb');
  const stats = writeMmdb(file, {
    databaseType: 'ipdata-Test',
    description: { en: 'test', 'zh-CN': '测试' },
    languages: ['en', 'zh-CN'],
    buildEpoch: 1_789_516_800,
    ...content,
    data: encodeValues(data),
  });
  const written = file.close();
  const bytes = readFileSync(path);
  expect(written.size).toBe(bytes.length);
  expect(stats.size).toBe(bytes.length);
  return { bytes, stats, reader: new Reader(bytes) };
}

// One object for both records, as MmdbRecordMapper shares equal parts: written once.
const australia = { iso_code: 'AU', names: { en: 'Australia', 'zh-CN': '澳大利亚' } };
const values: MmdbValue[] = [
  { country: australia, location: { latitude: -33.8688 } },
  { country: australia, city: { names: { en: 'Sydney' } } },
  { asn: uint32(24940), small: uint16(443), big: uint64(2 ** 40), ok: true, no: false, list: ['a', 'bb', 'a'] },
  { city: { names: { en: 'Zürich 北京 🙂' } }, empty: '', zero: uint32(0), neg: -0.5 },
];

/** A value as the maxmind reader returns it: uint64 as a bigint, other ints as numbers. */
function plain(value: MmdbValue): unknown {
  if (value instanceof MmdbUint) return value.type === 'uint64' ? BigInt(value.value) : value.value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
const answers = values.map(plain);

describe('writeMmdb: IPv4 and IPv6 in one tree, read back by the maxmind reader', () => {
  const ranges4: V4Range[] = [
    { first: v4('1.0.0.0'), last: v4('1.0.0.255'), id: 0 },
    { first: v4('1.0.1.3'), last: v4('1.0.1.200'), id: 1 }, // not CIDR-aligned at either end
    { first: v4('5.9.0.0'), last: v4('5.9.255.255'), id: 2 },
    { first: v4('5.10.0.0'), last: v4('5.10.0.0'), id: 3 },
    { first: v4('255.255.255.255'), last: v4('255.255.255.255'), id: 1 },
  ];
  const ranges6: V6Range[] = [
    { first: v6('2001:db8::5'), last: v6('2001:db8::1:9'), id: 3 },
    { first: v6('2a01:4f8::'), last: v6('2a01:4f8:ffff:ffff:ffff:ffff:ffff:ffff'), id: 2 },
    { first: v6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0'), last: TOP6, id: 0 },
  ];

  /** The model: the data of an address, and the CIDR block of its range holding it. */
  const expected4 = (address: number): { data: unknown; prefix: number } => {
    const range = ranges4.find(({ first, last }) => first <= address && address <= last);
    let first = 0;
    let last = 0xffffffff;
    if (range) ({ first, last } = range);
    else {
      for (const r of ranges4) {
        if (r.last < address) first = Math.max(first, r.last + 1);
        if (r.first > address) last = Math.min(last, r.first - 1);
      }
    }
    let prefix = -1;
    forEachIpv4Cidr(first, last, (network, length) => {
      const size = 2 ** (32 - length);
      if (network <= address && address < network + size) prefix = length;
    });
    return { data: range ? answers[range.id] : null, prefix };
  };
  const expected6 = (address: bigint): { data: unknown; prefix: number } => {
    const range = ranges6.find(({ first, last }) => first <= address && address <= last);
    let prefix = -1;
    if (range) {
      forEachIpv6Cidr(range.first, range.last, (network, length) => {
        if (network <= address && address < network + (1n << BigInt(128 - length))) prefix = length;
      });
    }
    return { data: range ? answers[range.id] : null, prefix };
  };

  for (const recordSize of [24, 28, 32] as RecordSize[]) {
    it(`answers every range edge and its neighbours (${recordSize}-bit records)`, () => {
      const { reader, stats, bytes } = write({ ipv4: v4Runs(ranges4), ipv6: v6Runs(ranges6), data: values, recordSize });
      expect(stats.recordSize).toBe(recordSize);
      expect(reader.metadata.recordSize).toBe(recordSize);
      for (const { first, last } of ranges4) {
        for (const address of [first - 1, first, first + 1, (first + last) >>> 1, last - 1, last, last + 1]) {
          if (address < 0 || address > 0xffffffff) continue;
          const text = formatIpv4(address);
          const [data, prefix] = reader.getWithPrefixLength(text);
          expect({ text, data, prefix }).toEqual({ text, ...expected4(address) });
        }
      }
      for (const { first, last } of ranges6) {
        for (const address of [first - 1n, first, first + 1n, (first + last) / 2n, last - 1n, last, last + 1n]) {
          if (address < 0n || address > TOP6) continue;
          const text = v6Text(address);
          const [data, prefix] = reader.getWithPrefixLength(text);
          const want = expected6(address);
          expect({ text, data }).toEqual({ text, data: want.data });
          if (want.data !== null) expect({ text, prefix }).toEqual({ text, prefix: want.prefix });
        }
      }
      expect(verifyMmdb(bytes).recordSize).toBe(recordSize);
    });
  }

  it('aliases ::ffff:0:0/96 and 2002::/16 to the IPv4 subtree, with IPv4 itself at ::/96', () => {
    const { reader, bytes } = write({ ipv4: v4Runs(ranges4), ipv6: v6Runs(ranges6), data: values });
    for (const [text, ipv4, prefix] of [
      ['1.0.1.3', '1.0.1.3', 32],
      ['::1.0.1.3', '1.0.1.3', 128],
      ['::ffff:1.0.1.3', '1.0.1.3', 128],
      ['2002:100:103::', '1.0.1.3', 48],
      ['2002:100:103:ffff:ffff:ffff:ffff:ffff', '1.0.1.3', 48],
      ['5.9.1.2', '5.9.1.2', 16],
      ['::ffff:5.9.1.2', '5.9.1.2', 112],
      ['2002:509:102:1::', '5.9.1.2', 32],
    ] as const) {
      expect({ text, answer: reader.getWithPrefixLength(text) }).toEqual({ text, answer: [expected4(v4(ipv4)).data, prefix] });
    }
    // Next to the aliases there is no data.
    for (const text of ['::fffe:ffff:ffff', '::1:0:0:0', '2001:ffff::1', '2003::1']) expect(reader.get(text)).toBeNull();
    // The alias records point at an existing node: the tree stays a DAG, every node reachable.
    const check = verifyMmdb(bytes);
    expect(check.nodeCount).toBe(reader.metadata.nodeCount);
  });

  it('replaces IPv6 data inside the IPv4 blocks and counts it', () => {
    const shadowing: V6Range[] = [
      { first: v6('::'), last: v6('::ffff'), id: 0 },
      { first: v6('2001::'), last: v6('2002:0:0:0:0:0:0:5'), id: 2 },
      ...ranges6.slice(1),
    ];
    const { reader, stats } = write({ ipv4: v4Runs(ranges4), ipv6: v6Runs(shadowing), data: values });
    expect(stats.shadowedIpv6Runs).toBe(2);
    expect(reader.get('::5')).toBeNull(); // IPv4 0.0.0.5: no data
    expect(reader.get('2001:ffff::')).toEqual(answers[2]); // before 2002::/16 the IPv6 data stays
    expect(reader.get('2002::5')).toBeNull(); // 2002::/16 is IPv4 0.0.0.0 now
    expect(reader.get('2002:100:1::')).toEqual(answers[0]);
  });

  it('writes every data type and metadata field, deduplicating with pointers', () => {
    const { reader, bytes, stats } = write({ ipv4: v4Runs(ranges4), ipv6: v6Runs(ranges6), data: values });
    expect(reader.get('5.10.0.0')).toEqual(answers[3]);
    expect(reader.get('5.9.0.1')).toEqual(answers[2]);
    const { metadata } = reader;
    expect(metadata).toMatchObject({
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
      databaseType: 'ipdata-Test',
      description: { en: 'test', 'zh-CN': '测试' },
      ipVersion: 6,
      languages: ['en', 'zh-CN'],
      nodeCount: stats.nodeCount,
      recordSize: 24,
      searchTreeSize: (stats.nodeCount * 24 * 2) / 8,
    });
    expect(metadata.buildEpoch.getTime()).toBe(1_789_516_800_000);
    // "Australia" and the whole country map are stored once: the second record points at them.
    const text = bytes.toString('latin1');
    expect(text.split('Australia').length - 1).toBe(1);
    expect(text.split('iso_code').length - 1).toBe(1);
    const check = verifyMmdb(bytes);
    expect(check).toMatchObject({ values: values.length, databaseType: 'ipdata-Test', ipVersion: 6 });
  });

  it('uses 28-bit records when data offsets pass 2^24 and refuses a forced size that does not fit', () => {
    // Two values of ~9 MB push the second one's record value past 2^24: the high nibbles matter.
    const big: MmdbValue[] = [{ blob: 'x'.repeat(9_000_000) }, { blob: 'y'.repeat(9_000_000) }, { small: 'z' }];
    const ipv4 = v4Runs([
      { first: v4('1.0.0.0'), last: v4('1.0.0.0'), id: 0 },
      { first: v4('1.0.0.1'), last: v4('1.0.0.1'), id: 1 },
      { first: v4('1.0.0.2'), last: v4('1.0.0.3'), id: 2 },
    ]);
    const { reader, stats, bytes } = write({ ipv4, ipv6: v6Runs([]), data: big });
    expect(stats.recordSize).toBe(28);
    expect(reader.get('1.0.0.1')).toEqual(big[1]);
    expect(reader.get('1.0.0.3')).toEqual(big[2]);
    expect(reader.get('1.0.0.4')).toBeNull();
    verifyMmdb(bytes);
    expect(() => write({ ipv4, ipv6: v6Runs([]), data: big, recordSize: 24 })).toThrow(/more than 24 bits/);
  });

  it('agrees with a model on random partitions (property)', () => {
    const rangesArbitrary = fc
      .uniqueArray(fc.nat(0xffffffff), { minLength: 0, maxLength: 40 })
      .map((cuts) => cuts.sort((a, b) => a - b));
    fc.assert(
      fc.property(rangesArbitrary, fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 41, maxLength: 41 }), (cuts, ids) => {
        // Pairs of cuts are ranges; ids of -1 leave a gap.
        const ranges: V4Range[] = [];
        for (let i = 0; i + 1 < cuts.length; i += 2) {
          const id = ids[i] as number;
          if (id >= 0) ranges.push({ first: cuts[i] as number, last: cuts[i + 1] as number, id });
        }
        // Neighbouring equal ids would be one run: fold them as the edition does.
        const { reader, bytes } = write({ ipv4: v4Runs(ranges), ipv6: v6Runs([]), data: values });
        verifyMmdb(bytes);
        for (const { first, last, id } of ranges) {
          for (const address of [first, last, Math.floor((first + last) / 2)]) {
            expect(reader.get(formatIpv4(address))).toEqual(answers[id]);
            expect(reader.get(`::ffff:${formatIpv4(address)}`)).toEqual(answers[id]);
          }
          if (first > 0 && !ranges.some((r) => r.first <= first - 1 && first - 1 <= r.last)) {
            expect(reader.get(formatIpv4(first - 1))).toBeNull();
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('verifyMmdb', () => {
  const good = () =>
    write({
      ipv4: v4Runs([{ first: v4('1.0.0.0'), last: v4('1.0.0.255'), id: 0 }]),
      ipv6: v6Runs([]),
      data: values,
    });

  it('accepts a written file and reports its figures', () => {
    const { bytes, stats } = good();
    expect(verifyMmdb(bytes)).toMatchObject({
      nodeCount: stats.nodeCount,
      recordSize: 24,
      searchTreeBytes: stats.nodeCount * 6,
      dataSectionBytes: stats.dataSectionBytes,
      dataRecords: stats.networks,
    });
  });

  it('refuses a broken separator, a record out of range, a missing or doubled marker, bad metadata', () => {
    const { bytes, stats } = good();
    const tree = stats.nodeCount * 6;
    const separator = Buffer.from(bytes);
    separator[tree + 3] = 1;
    expect(() => verifyMmdb(separator)).toThrow(/separator/);
    const outOfRange = Buffer.from(bytes);
    outOfRange.writeUIntBE(0xffffff, 0, 3);
    expect(() => verifyMmdb(outOfRange)).toThrow(/outside the data section/);
    const noMarker = Buffer.from(bytes);
    noMarker[noMarker.lastIndexOf(Buffer.from('MaxMind.com'))] = 0x6d;
    expect(() => verifyMmdb(noMarker)).toThrow(/marker/);
    const twice = Buffer.concat([Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), bytes]);
    expect(() => verifyMmdb(twice)).toThrow(/more than once/);
    const cycle = Buffer.from(bytes);
    cycle.writeUIntBE(0, 0, 3); // node 0's left record points at node 0
    expect(() => verifyMmdb(cycle)).toThrow(/cycle|longer than/);
  });
});
