import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.js';
import { isVersionName, parseManifest } from './dataset-version.js';

const hash = 'a'.repeat(64);
const manifest = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    datasetVersion: '2026.01.10-abc',
    builtAt: '2026-01-10T00:00:00.000Z',
    format: { file: 'ipdata.ipdat', formatVersion: 1 },
    counts: { ipv4Ranges: 10, ipv6Ranges: 5 },
    files: [
      { name: 'asn.csv', size: 10, sha256: hash, rows: 3 },
      { name: 'asn-sample.csv', size: 5, sha256: hash, rows: 1 },
      { name: 'ipdata.ipdat', size: 99, sha256: hash },
      { name: 'ipdata-city.mmdb', size: 77, sha256: hash, rows: 42 },
      { name: 'licences/X', size: 1, sha256: hash },
    ],
    ...fields,
  });

describe('parseManifest and the catalogue files', () => {
  const published = new Date('2026-01-11T00:00:00Z');

  it('reads sizes, hashes, rows (ranges for the binary format) and maps files to database and format', () => {
    const version = parseManifest(manifest(), '2026.01.10-abc', published);
    expect(version.builtAt).toEqual(new Date('2026-01-10T00:00:00Z'));
    const files = Catalogue.filesOf(version);
    expect(files.map((file) => [file.entry.database, file.entry.format, file.file.rows, file.sample?.name])).toEqual([
      ['asn', 'csv', 3, 'asn-sample.csv'],
      ['complete', 'ipdat', 15, undefined],
      ['complete', 'mmdb', 42, undefined],
    ]);
  });

  it('refuses a manifest of another version, bad names, sizes or hashes', () => {
    expect(() => parseManifest(manifest(), 'other', published)).toThrow(/names version/);
    expect(() =>
      parseManifest(manifest({ files: [{ name: '../x', size: 1, sha256: hash }] }), '2026.01.10-abc', published),
    ).toThrow(/name/);
    expect(() =>
      parseManifest(manifest({ files: [{ name: 'a', size: -1, sha256: hash }] }), '2026.01.10-abc', published),
    ).toThrow(/size/);
    expect(() => parseManifest(manifest({ files: [{ name: 'a', size: 1, sha256: 'x' }] }), '2026.01.10-abc', published)).toThrow(
      /sha256/,
    );
    expect(() => parseManifest('{', '2026.01.10-abc', published)).toThrow();
  });

  it('accepts only folder names that cannot leave DATASETS_DIR', () => {
    expect(isVersionName('2026.09.16-f64a5fa7')).toBe(true);
    for (const bad of ['', '.', '..', '../x', 'a/b', 'a..b', '.hidden', 'a b']) expect(isVersionName(bad), bad).toBe(false);
  });
});
