import { readFileSync } from 'node:fs';
import { parseIpv4, parseIpv6 } from '@ipdata/common/ip';
import type { WordsPerAddress } from '../ranges/address.js';
import { normalizeRanges } from '../ranges/normalize-ranges.js';
import { GrowableU32, type Partition } from '../ranges/partition.js';
import { splitCsvLine, textLines } from './csv-line.js';
import { describeFsError, SourceError } from './source-error.js';

/**
 * Reads an ip-location-db ASN CSV (`start,end,asn,organisation`; IPv4 files as numbers,
 * IPv6 files as text) into a Partition. `valueOf(asn, organisation)` gives the value id of a
 * row; overlapping rows are resolved by normalizeRanges (the more specific row wins).
 */
export function readAsnCsv(
  path: string,
  family: 4 | 6,
  valueOf: (asn: number, organisation: string) => number,
  progress?: (fraction: number) => void,
): Partition {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SourceError(path, describeFsError(error));
  }
  const words: WordsPerAddress = family === 4 ? 1 : 4;
  const lines = textLines(text);
  const firsts = new GrowableU32(lines.length * words + 1);
  const lasts = new GrowableU32(lines.length * words + 1);
  const values = new GrowableU32(lines.length + 1);
  const first = new Uint32Array(words);
  const last = new Uint32Array(words);
  const parseAddress = (field: string | undefined, out: Uint32Array): boolean => {
    if (field === undefined) return false;
    if (family === 6) return parseIpv6(field, out);
    // IPv4 files come in numeric form ("-num.csv") or dotted form; neither with leading zeros
    // (the project's one address policy, which the lookup engine applies to queries).
    const value = /^(?:0|[1-9]\d{0,9})$/.test(field) ? Number(field) : parseIpv4(field);
    if (value < 0 || value > 0xffffffff) return false;
    out[0] = value;
    return true;
  };

  lines.forEach((line, index) => {
    if (line === '') return;
    const at = `line ${index + 1}`;
    const fields = splitCsvLine(line);
    if (fields === null || fields.length < 3) throw new SourceError(path, `${at}: expected start,end,asn,organisation`);
    if (!parseAddress(fields[0], first)) throw new SourceError(path, `${at}: "${fields[0]}" is not an IPv${family} address`);
    if (!parseAddress(fields[1], last)) throw new SourceError(path, `${at}: "${fields[1]}" is not an IPv${family} address`);
    for (let w = 0; w < words; w++) {
      if (first[w] === last[w]) continue;
      if ((first[w] as number) > (last[w] as number)) throw new SourceError(path, `${at}: range end is before its start`);
      break;
    }
    const asnText = fields[2] as string;
    if (!/^\d+$/.test(asnText) || Number(asnText) > 0xffffffff)
      throw new SourceError(path, `${at}: "${asnText}" is not an AS number`);
    firsts.pushFrom(first, 0, words);
    lasts.pushFrom(last, 0, words);
    values.push(valueOf(Number(asnText), fields.slice(3).join(',').trim()));
    if (progress && (index & 0xffff) === 0) progress(index / lines.length);
  });
  if (values.length === 0) throw new SourceError(path, 'holds no ranges');
  progress?.(1);
  return normalizeRanges({ words, firsts: firsts.view(), lasts: lasts.view(), values: values.view() });
}
