import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvField, encodeCells, float32Text, SAMPLE_ROWS, TableWriter, type Column } from './table-writer.js';

const folder = mkdtempSync(join(tmpdir(), 'table-writer-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const columns: Column[] = [
  { name: 'name', kind: 'text' },
  { name: 'asn', kind: 'int' },
  { name: 'latitude', kind: 'float' },
  { name: 'is_eu', kind: 'bool' },
];

describe('CSV and NDJSON writers', () => {
  it('quotes CSV fields only when needed and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Cloudflare, Inc.')).toBe('"Cloudflare, Inc."');
    expect(csvField('LLC "SPUTNIK"')).toBe('"LLC ""SPUTNIK"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('writes float32 coordinates in their shortest exact form', () => {
    expect(float32Text(Math.fround(37.751))).toBe('37.751');
    expect(float32Text(Math.fround(-33.8688))).toBe('-33.8688');
    expect(Math.fround(Number(float32Text(Math.fround(1 / 3))))).toBe(Math.fround(1 / 3));
  });

  it('writes the same rows as CSV and NDJSON, samples the first rows, and hashes what it wrote', () => {
    const writer = new TableWriter(folder, 'things', columns);
    const cells = encodeCells(columns, ['Cloudflare, Inc. "CF"', 13335, float32Text(-33.8688), false]);
    const empty = encodeCells(columns, [null, null, null, null]);
    const total = SAMPLE_ROWS + 5;
    for (let i = 0; i < total; i++) writer.row(`1.0.0.${i % 256}`, `1.0.0.${i % 256}`, i % 2 === 0 ? cells : empty);
    const files = writer.close();
    expect(files.map((file) => [file.name, file.rows])).toEqual([
      ['things.csv', total],
      ['things.ndjson', total],
      ['things-sample.csv', SAMPLE_ROWS],
      ['things-sample.ndjson', SAMPLE_ROWS],
    ]);

    const csv = readFileSync(join(folder, 'things.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('start_ip,end_ip,name,asn,latitude,is_eu');
    expect(csv[1]).toBe('1.0.0.0,1.0.0.0,"Cloudflare, Inc. ""CF""",13335,-33.8688,false');
    expect(csv[2]).toBe('1.0.0.1,1.0.0.1,,,,');
    expect(csv.length).toBe(total + 2); // header + rows + the empty string after the last newline

    const ndjson = readFileSync(join(folder, 'things.ndjson'), 'utf8').trimEnd().split('\n');
    expect(ndjson).toHaveLength(total);
    expect(JSON.parse(ndjson[0] as string)).toEqual({
      start_ip: '1.0.0.0',
      end_ip: '1.0.0.0',
      name: 'Cloudflare, Inc. "CF"',
      asn: 13335,
      latitude: -33.8688,
      is_eu: false,
    });
    expect(JSON.parse(ndjson[1] as string)).toEqual({
      start_ip: '1.0.0.1',
      end_ip: '1.0.0.1',
      name: null,
      asn: null,
      latitude: null,
      is_eu: null,
    });

    const sample = readFileSync(join(folder, 'things-sample.csv'), 'utf8').trimEnd().split('\n');
    expect(sample).toEqual(csv.slice(0, SAMPLE_ROWS + 1));
    for (const file of files) {
      const bytes = readFileSync(join(folder, file.name));
      expect(file.size).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});
