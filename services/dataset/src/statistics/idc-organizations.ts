import { forEachIpv4Cidr, forEachIpv6Cidr, wordsToBigInt } from '@ipdata/common/ip';
import { NONE, type DatasetRecord, type RangeTable } from '../format/index.js';
import type { IdcOrganization } from './statistics-file.js';

/** A record of a Chinese division that the hosting rule flags, with the addresses it covers. */
export interface IdcRecord {
  index: number;
  record: DatasetRecord;
  ipv4: number;
  ipv6: bigint;
  /** GB/T 2260 code, or "" for CN addresses without a mainland division. */
  division: string;
}

interface Builder {
  organization: string;
  asns: Set<number>;
  ipv4: number;
  ipv6: bigint;
  zhV4: Map<string, number>;
  zhV6: Map<string, bigint>;
  divisions: Map<string, { ipv4: number; ipv6: bigint }>;
  prefixes: number;
}

/** The key with the greatest weight (ties: the smaller key), or null. */
function heaviest<W extends number | bigint>(weights: Map<string, W>): [string, W] | null {
  let best: [string, W] | null = null;
  for (const entry of weights) {
    if (best === null || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  return best;
}

/**
 * Groups flagged records by their AS organisation (records without one are left out: nothing
 * names them) and counts per organisation: ASNs, addresses per division, the qqwry ISP name
 * covering more than half of its addresses (IPv4, or IPv6 for an IPv6-only organisation), and
 * its CIDR blocks: neighbouring ranges of the same organisation are joined first, so a block
 * split by another source's boundary (a qqwry city) still counts once.
 */
export function collectIdcOrganizations(
  idcRecords: readonly IdcRecord[],
  recordCount: number,
  ipv4: RangeTable,
  ipv6: RangeTable,
): IdcOrganization[] {
  const builders: Builder[] = [];
  const byName = new Map<string, number>();
  const organizationOf = new Int32Array(recordCount).fill(-1);

  for (const { index, record, ipv4: v4, ipv6: v6, division } of idcRecords) {
    const name = record.fields.organization ?? record.fields.asn_name ?? null;
    if (name === null) continue;
    let id = byName.get(name);
    if (id === undefined) {
      id = builders.length;
      byName.set(name, id);
      builders.push({
        organization: name,
        asns: new Set(),
        ipv4: 0,
        ipv6: 0n,
        zhV4: new Map(),
        zhV6: new Map(),
        divisions: new Map(),
        prefixes: 0,
      });
    }
    organizationOf[index] = id;
    const builder = builders[id] as Builder;
    if (record.asn !== null && record.asn !== 0) builder.asns.add(record.asn);
    builder.ipv4 += v4;
    builder.ipv6 += v6;
    const zh = record.fields.zh_isp ?? null;
    if (zh !== null) {
      builder.zhV4.set(zh, (builder.zhV4.get(zh) ?? 0) + v4);
      builder.zhV6.set(zh, (builder.zhV6.get(zh) ?? 0n) + v6);
    }
    if (division !== '') {
      let counts = builder.divisions.get(division);
      if (counts === undefined) {
        counts = { ipv4: 0, ipv6: 0n };
        builder.divisions.set(division, counts);
      }
      counts.ipv4 += v4;
      counts.ipv6 += v6;
    }
  }
  if (builders.length === 0) return [];

  countPrefixes(ipv4, 1, organizationOf, builders);
  countPrefixes(ipv6, 4, organizationOf, builders);

  return builders
    .map((builder): IdcOrganization => {
      let nameZh: string | null = null;
      if (builder.ipv4 > 0) {
        const best = heaviest(builder.zhV4);
        if (best !== null && best[1] * 2 > builder.ipv4) nameZh = best[0];
      } else {
        const best = heaviest(builder.zhV6);
        if (best !== null && best[1] * 2n > builder.ipv6) nameZh = best[0];
      }
      const provinces = [...builder.divisions.entries()]
        .map(([code, counts]) => ({ code, ipv4: counts.ipv4, ipv6: counts.ipv6 }))
        .sort((a, b) => compareCounts(a, b) || (a.code < b.code ? -1 : 1))
        .map(({ code, ipv4: v4, ipv6: v6 }) => ({ code, ipv4: v4, ipv6: v6.toString() }));
      return {
        name: nameZh ?? builder.organization,
        nameZh,
        organization: builder.organization,
        asns: [...builder.asns].sort((a, b) => a - b),
        prefixes: builder.prefixes,
        ipv4: builder.ipv4,
        ipv6: builder.ipv6.toString(),
        provinces,
      };
    })
    .sort((a, b) => compareCounts(toBig(a), toBig(b)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const toBig = (count: { ipv4: number; ipv6: string }) => ({ ipv4: count.ipv4, ipv6: BigInt(count.ipv6) });

function compareCounts(a: { ipv4: number; ipv6: bigint }, b: { ipv4: number; ipv6: bigint }): number {
  if (a.ipv4 !== b.ipv4) return b.ipv4 - a.ipv4;
  return a.ipv6 === b.ipv6 ? 0 : a.ipv6 > b.ipv6 ? -1 : 1;
}

/** Adds to each organisation the CIDR blocks of its runs of neighbouring ranges in `table`. */
function countPrefixes(table: RangeTable, words: 1 | 4, organizationOf: Int32Array, builders: Builder[]): void {
  const ranges = table.records.length;
  let runOrganization = -1;
  let runStart = 0;
  const close = (end: number) => {
    if (runOrganization < 0) return;
    const builder = builders[runOrganization] as Builder;
    if (words === 1) {
      const last = end < ranges ? (table.starts[end] as number) - 1 : 0xffffffff;
      forEachIpv4Cidr(table.starts[runStart] as number, last, () => builder.prefixes++);
    } else {
      const last = end < ranges ? wordsToBigInt(table.starts, end * 4) - 1n : (1n << 128n) - 1n;
      forEachIpv6Cidr(wordsToBigInt(table.starts, runStart * 4), last, () => builder.prefixes++);
    }
  };
  for (let i = 0; i < ranges; i++) {
    const record = table.records[i] as number;
    const organization = record === NONE ? -1 : (organizationOf[record] as number);
    if (organization === runOrganization) continue;
    close(i);
    runOrganization = organization;
    runStart = i;
  }
  close(ranges);
}
