import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseIpv4 } from '@ipdata/common/ip';
import { afterAll, describe, expect, it } from 'vitest';
import { NONE } from '../format/index.js';
import { rangeIndex } from '../testing/sampling.js';
import { readAsnCsv } from './asn-csv-source.js';
import { packagedSources } from './source-catalogue.js';

const folder = mkdtempSync(join(tmpdir(), 'asn-csv-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function read(name: string, text: string, family: 4 | 6 = 4) {
  const path = join(folder, name);
  writeFileSync(path, text);
  const rows: string[] = [];
  const partition = readAsnCsv(path, family, (asn, org) => rows.push(`${asn} ${org}`) - 1);
  return { path, rows, partition };
}

describe('ASN CSV reader', () => {
  it('reads quoted organisations with commas and doubled quotes', () => {
    const { rows, partition } = read(
      'quoted.csv',
      '16777216,16777471,13335,"Cloudflare, Inc."\n35309568,35313663,201907,"LLC ""SPUTNIK"""\n',
    );
    expect(rows).toEqual(['13335 Cloudflare, Inc.', '201907 LLC "SPUTNIK"']);
    expect([...partition.starts]).toEqual([0, 16777216, 16777472, 35309568, 35313664]);
    expect([...partition.values]).toEqual([NONE, 0, NONE, 1, NONE]);
  });

  it('stops at a malformed line with its number', () => {
    const text = '16777216,16777471,13335,Cloudflare\n16777472,oops,1,X\n';
    const path = join(folder, 'bad.csv');
    expect(() => read('bad.csv', text)).toThrow(`${path}: line 2: "oops" is not an IPv4 address`);
    expect(() => read('reversed.csv', '20,10,1,X\n')).toThrow(/line 1: range end is before its start/);
  });

  it('refuses leading zeros, as the lookup engine refuses them in queries', () => {
    // "010.0.0.1" is 10.0.0.1 to some parsers and 8.0.0.1 (octal) to others.
    expect(() => read('octal.csv', '1.0.0.0,010.0.0.1,1,X\n')).toThrow(/line 1: "010.0.0.1" is not an IPv4 address/);
    expect(() => read('zero-num.csv', '16777216,016777471,1,X\n')).toThrow(/line 1: "016777471" is not an IPv4 address/);
    expect(() => read('v6.csv', '::ffff:1.0.0.0,::ffff:1.0.0.01,1,X\n', 6)).toThrow(/"::ffff:1.0.0.01" is not an IPv6 address/);
    expect(read('dotted.csv', '1.0.0.0,1.0.0.255,13335,Cloudflare\n').rows).toEqual(['13335 Cloudflare']);
  });

  it('resolves the overlapping rows of the real file (the more specific row wins)', () => {
    // asn-ipv4-num.csv has AS749 3596550144-3607166975 overlapped by AS721 3607101440-3607167999.
    const rows: number[] = [];
    const partition = readAsnCsv(packagedSources().paths.asnV4, 4, (asn) => rows.push(asn) - 1);
    const at = (text: string) => rows[partition.values[rangeIndex(partition, Uint32Array.of(parseIpv4(text)))] as number];
    expect(at('215.0.0.1')).toBe(721); // 3607101441, inside both rows
    expect(at('215.1.0.1')).toBe(721); // past AS749's end, AS721 only
    expect(at('214.254.0.1')).toBe(749); // before the overlap
  });
});
