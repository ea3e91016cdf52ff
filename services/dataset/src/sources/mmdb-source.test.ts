import { readFileSync } from 'node:fs';
import { Reader } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { NONE } from '../format/index.js';
import { formatAddress } from '../ranges/address.js';
import { random, rangeIndex, sampleAddresses } from '../testing/sampling.js';
import { openMmdb } from './mmdb-source.js';
import { packagedSources } from './source-catalogue.js';

const { paths } = packagedSources();

describe('MaxMind DB enumeration (GeoLite2 City, the real package files)', () => {
  for (const [family, path] of [
    [4, paths.geoliteV4],
    [6, paths.geoliteV6],
  ] as const) {
    it(`gives the same answer as the maxmind reader for 2,000 IPv${family} addresses`, () => {
      const decoded: unknown[] = [];
      const ids = new Map<number, number>();
      const partition = openMmdb(path).enumerate(family, (offset, decode) => {
        let id = ids.get(offset);
        if (id === undefined) {
          id = decoded.length;
          decoded.push(decode());
          ids.set(offset, id);
        }
        return id;
      });
      expect(partition.values.length).toBeGreaterThan(family === 4 ? 1_000_000 : 500_000);
      const reader = new Reader(readFileSync(path));
      const words = partition.words;
      let hits = 0;
      for (const address of sampleAddresses(partition, random(family))) {
        const text = formatAddress(address, 0, words);
        const value = partition.values[rangeIndex(partition, address)] as number;
        const expected = reader.get(text);
        if (expected !== null) hits++;
        expect({ text, record: value === NONE ? null : decoded[value] }).toEqual({ text, record: expected });
      }
      expect(hits).toBeGreaterThan(900);
    });
  }

  it('refuses a file that is not a MaxMind DB, naming it', () => {
    expect(() => openMmdb(paths.asnV4)).toThrow(`${paths.asnV4}: not a MaxMind DB file (metadata marker not found)`);
  });
});
