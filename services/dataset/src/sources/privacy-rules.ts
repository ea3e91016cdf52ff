import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseIpv4, parseIpv6 } from '@ipdata/common/ip';
import { FLAG, NONE } from '../format/index.js';
import { mergePartitions } from '../ranges/merge-partitions.js';
import { normalizeRanges } from '../ranges/normalize-ranges.js';
import { GrowableU32, type Partition } from '../ranges/partition.js';
import { readDataCsv } from './data-file.js';
import { describeFsError, SourceError } from './source-error.js';

export const HOSTING_RULE = 'hosting-asn';

/** One privacy rule read from a range list: which flag it sets and where it applies. */
export interface RangeListRule {
  /** e.g. "tor:tor-exits.csv". */
  id: string;
  flag: number;
  path: string;
  ipv4: Partition;
  ipv6: Partition;
  /** Rows in the file. */
  rows: number;
}

const LIST_KINDS: ReadonlyArray<{ prefix: string; kind: string; flag: number }> = [
  { prefix: 'tor-', kind: 'tor', flag: FLAG.isTor },
  { prefix: 'vpn-', kind: 'vpn', flag: FLAG.isVpn },
  { prefix: 'proxy-', kind: 'proxy', flag: FLAG.isProxy },
  { prefix: 'relay-', kind: 'relay', flag: FLAG.isRelay },
];

/** The curated hosting/data-centre ASN list (data/hosting-asns.csv). */
export function loadHostingAsns(path: string): Map<number, string> {
  const asns = new Map<number, string>();
  for (const { line, fields } of readDataCsv(path, ['asn', 'name', 'source'])) {
    const [asn, name, source] = fields;
    if (asn === undefined || !/^\d+$/.test(asn)) throw new SourceError(path, `line ${line}: "${asn ?? ''}" is not an AS number`);
    if (!name || !source) throw new SourceError(path, `line ${line}: every entry needs a name and a source`);
    if (asns.has(Number(asn))) throw new SourceError(path, `line ${line}: AS${asn} is listed twice`);
    asns.set(Number(asn), name);
  }
  if (asns.size === 0) throw new SourceError(path, 'lists no ASNs');
  return asns;
}

/** Files of the privacy-list folder that are rules, sorted by name (a missing folder is an error). */
export function listRangeFiles(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    throw new SourceError(folder, describeFsError(error));
  }
  return names
    .filter((name) => name.endsWith('.csv'))
    .sort()
    .map((name) => {
      if (!LIST_KINDS.some(({ prefix }) => name.startsWith(prefix))) {
        throw new SourceError(join(folder, name), 'privacy list names must start with tor-, vpn-, proxy- or relay-');
      }
      return join(folder, name);
    });
}

/** Reads one range list (`start,end[,label]`, IPv4 and IPv6 mixed) into one partition per family. */
export function readRangeList(path: string): RangeListRule {
  const name = basename(path);
  const kind = LIST_KINDS.find(({ prefix }) => name.startsWith(prefix));
  if (kind === undefined) throw new SourceError(path, 'privacy list names must start with tor-, vpn-, proxy- or relay-');
  const v4 = { firsts: new GrowableU32(), lasts: new GrowableU32() };
  const v6 = { firsts: new GrowableU32(), lasts: new GrowableU32() };
  const first = new Uint32Array(4);
  const last = new Uint32Array(4);
  const rows = readDataCsv(path, ['start', 'end'], true);
  for (const { line, fields } of rows) {
    const [start = '', end = ''] = fields;
    const a = parseIpv4(start);
    const b = parseIpv4(end);
    if (a >= 0 && b >= 0) {
      if (b < a) throw new SourceError(path, `line ${line}: end ${end} is before start ${start}`);
      v4.firsts.push(a);
      v4.lasts.push(b);
      continue;
    }
    if (!parseIpv6(start, first) || !parseIpv6(end, last)) {
      throw new SourceError(path, `line ${line}: expected start,end[,label] with two IPv4 or two IPv6 addresses`);
    }
    for (let w = 0; w < 4; w++) {
      if (first[w] === last[w]) continue;
      if ((first[w] as number) > (last[w] as number))
        throw new SourceError(path, `line ${line}: end ${end} is before start ${start}`);
      break;
    }
    v6.firsts.pushFrom(first, 0, 4);
    v6.lasts.pushFrom(last, 0, 4);
  }
  const partition = (words: 1 | 4, list: typeof v4) =>
    normalizeRanges({
      words,
      firsts: list.firsts.view(),
      lasts: list.lasts.view(),
      values: new Uint32Array(list.firsts.length / words),
    });
  return { id: `${kind.kind}:${name}`, flag: kind.flag, path, ipv4: partition(1, v4), ipv6: partition(4, v6), rows: rows.length };
}

/** A set of range-list rules applying to one range: their flags and ids. */
export interface RuleSet {
  flags: number;
  ids: string[];
}

/**
 * Combines all range lists of one family into a single partition whose values index `sets`
 * (the distinct combinations of lists covering a range), so the main merge sees one source.
 */
export function combineRangeLists(
  rules: readonly RangeListRule[],
  family: 4 | 6,
  sets: RuleSet[],
  setIds: Map<string, number>,
): Partition {
  const words = family === 4 ? 1 : 4;
  if (rules.length === 0) return { words, starts: new Uint32Array(words), values: Uint32Array.of(NONE) };
  const table = mergePartitions(
    rules.map((rule) => (family === 4 ? rule.ipv4 : rule.ipv6)),
    (values) => {
      const members: number[] = [];
      values.forEach((value, i) => {
        if (value !== NONE) members.push(i);
      });
      if (members.length === 0) return NONE;
      const key = members.join(',');
      let id = setIds.get(key);
      if (id === undefined) {
        id = sets.length;
        sets.push({
          flags: members.reduce((flags, i) => flags | (rules[i] as RangeListRule).flag, 0),
          ids: members.map((i) => (rules[i] as RangeListRule).id),
        });
        setIds.set(key, id);
      }
      return id;
    },
  );
  return { words, starts: table.starts, values: table.records };
}
