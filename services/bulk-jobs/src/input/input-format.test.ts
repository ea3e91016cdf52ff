import { describe, expect, it } from 'vitest';
import { InputLineReader, csvCells, detectInputFormat } from './input-format.js';

function readAll(lines: string[], format: 'auto' | 'csv' | 'ndjson' | 'lines' = 'auto'): { values: string[]; format: string } {
  const reader = new InputLineReader(format);
  const values = lines.map((line) => reader.read(line)).filter((v): v is string => v !== undefined);
  return { values, format: reader.resolvedFormat };
}

describe('detectInputFormat', () => {
  it.each([
    ['1.2.3.4', 'lines'],
    ['2001:db8::1', 'lines'],
    ['"1.2.3.4"', 'ndjson'],
    ['{"ip":"1.2.3.4"}', 'ndjson'],
    ['ip,name', 'csv'],
    ['"1.2.3.4","x"', 'csv'],
    ['1.2.3.4\tx', 'csv'],
    ['1.2.3.4;x', 'csv'],
    ['not an address', 'lines'],
  ])('%s → %s', (line, format) => {
    expect(detectInputFormat(line)).toBe(format);
  });
});

describe('InputLineReader', () => {
  it('reads one address per line, trimming, skipping blank lines, keeping bad lines', () => {
    expect(readAll(['\uFEFF1.2.3.4', '', '  8.8.8.8  ', 'garbage', '   ', '::1'])).toEqual({
      values: ['1.2.3.4', '8.8.8.8', 'garbage', '::1'],
      format: 'lines',
    });
  });

  it('reads NDJSON strings and {"ip"} objects; a broken or unexpected line is passed on as written', () => {
    const lines = ['"1.2.3.4"', '{"ip": "8.8.8.8", "tag": 1}', '{"ip": 7}', '{broken', '[1,2]', '{"addr":"9.9.9.9"}', '"a\\nb"'];
    expect(readAll(lines)).toEqual({
      values: ['1.2.3.4', '8.8.8.8', '7', '{broken', '[1,2]', '{"addr":"9.9.9.9"}', 'a b'],
      format: 'ndjson',
    });
  });

  it('reads a CSV column named ip, wherever it is, skipping the header', () => {
    expect(readAll(['name,IP,country', 'a,1.2.3.4,US', '"b, c",  8.8.8.8 ,DE', 'd', 'e,,FR'])).toEqual({
      values: ['1.2.3.4', '8.8.8.8', '', ''],
      format: 'csv',
    });
  });

  it('reads the first CSV column when the first row names no address column (header optional)', () => {
    expect(readAll(['1.2.3.4,x', '"8.8.8.8",y', 'bad,z'])).toEqual({ values: ['1.2.3.4', '8.8.8.8', 'bad'], format: 'csv' });
    // A header that names no address column is data: it stays visible in the result as a bad line.
    expect(readAll(['host,owner', '1.2.3.4,x']).values).toEqual(['host', '1.2.3.4']);
  });

  it('uses the delimiter of the first row (tab, semicolon)', () => {
    expect(readAll(['ip\tnote', '1.2.3.4\tx']).values).toEqual(['1.2.3.4']);
    expect(readAll(['note;address', 'x;1.2.3.4']).values).toEqual(['1.2.3.4']);
  });

  it('skips a column name on the first line of a one-column file', () => {
    expect(readAll(['IP', '1.2.3.4', 'ip']).values).toEqual(['1.2.3.4', 'ip']);
  });

  it('honours a forced format', () => {
    expect(readAll(['{"ip":"1.2.3.4"}'], 'lines').values).toEqual(['{"ip":"1.2.3.4"}']);
    expect(readAll(['1.2.3.4'], 'csv').values).toEqual(['1.2.3.4']);
  });
});

describe('csvCells', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['"a,b",c', ['a,b', 'c']],
    ['"a ""q"" b",c', ['a "q" b', 'c']],
    ['a,', ['a', '']],
    ['', ['']],
    ['"unterminated,x', ['unterminated,x']],
  ])('%s', (line, cells) => {
    expect(csvCells(line, ',')).toEqual(cells);
  });
});
