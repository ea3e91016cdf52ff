import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { csvBatch, csvBatchColumns, csvBatchRow, csvCell, csvDocument, csvHeader, csvLine, csvRow, csvValues } from './csv.js';
import { compileFields } from './field-selector.js';
import { ipInfoView } from './ip-info.view.js';

/** A small RFC 4180 reader, to check that what we write reads back as the values. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

const view = ipInfoView(
  IpInfo.fromPartial({
    ip: '8.8.8.8',
    countryCode: 'US',
    cityName: 'Mountain View, "CA"',
    latitude: 37.4056,
    longitude: -122.0775,
    isEu: false,
    asn: { asn: 15169, asnName: 'GOOGLE', organization: 'Google\nLLC' },
    timeZone: { name: 'America/Los_Angeles', offset: '-07:00', currentTime: '2026-05-01T10:00:00-07:00' },
    isProxy: false,
    proxyData: { isVpn: true },
    startIp: '8.8.8.0',
    endIp: '8.8.8.255',
    networks: ['8.8.8.0/24'],
  }),
);

describe('csvCell', () => {
  it('writes null empty, booleans true/false, numbers as in JSON, lists joined by a space', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(-122.0775)).toBe('-122.0775');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(['1.0.0.0/24', '1.1.1.0/24'])).toBe('1.0.0.0/24 1.1.1.0/24');
    expect(csvCell('plain text')).toBe('plain text');
  });

  it('quotes commas, quotes, CR and LF per RFC 4180, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell('"')).toBe('""""');
  });

  it('defuses text a spreadsheet would run as a formula, but not signed numbers or offsets', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('+1+cmd')).toBe("'+1+cmd");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('-07:00')).toBe('-07:00');
    expect(csvCell('+05:30')).toBe('+05:30');
    expect(csvCell('-12.5')).toBe('-12.5');
  });
});

describe('CSV documents', () => {
  it('writes a header of dotted columns and a record that reads back as the view', () => {
    const columns = compileFields(null).columns;
    const text = csvDocument(view, columns);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, record, ...rest] = parseCsv(text);
    expect(rest).toEqual([]);
    expect(header).toEqual(columns);
    expect(header).toContain('asn.asn');
    expect(header).toContain('proxy_data.is_vpn');
    const cell = (column: string) => record?.[header?.indexOf(column) ?? -1];
    expect(cell('ip')).toBe('8.8.8.8');
    expect(cell('city_name')).toBe('Mountain View, "CA"');
    expect(cell('asn.organization')).toBe('Google\nLLC');
    expect(cell('asn.asn')).toBe('15169');
    expect(cell('is_eu')).toBe('false');
    expect(cell('proxy_data.is_vpn')).toBe('true');
    expect(cell('time_zone.offset')).toBe('-07:00');
    // Null object: its columns are there, empty.
    expect(cell('currency.code')).toBe('');
    expect(cell('zip_code')).toBe('');
    expect(record).toHaveLength(header?.length ?? 0);
  });

  it('follows the field selection, in view order', () => {
    const columns = compileFields('proxy_data.is_vpn,ip,asn.asn').columns;
    expect(csvDocument(view, columns)).toBe('ip,asn.asn,proxy_data.is_vpn\r\n8.8.8.8,15169,true\r\n');
    const excluded = compileFields('-asn,-time_zone,-currency,-proxy_data').columns;
    expect(excluded.some((column) => column.includes('.'))).toBe(false);
  });

  it('builds header and rows from plain parts', () => {
    expect(csvHeader(['a', 'b.c'])).toBe('a,b.c\r\n');
    expect(csvRow(['x,y', null, 3, false])).toBe('"x,y",,3,false\r\n');
    expect(csvLine(['x,y', null, 3, false])).toBe('"x,y",,3,false');
    expect(csvValues({ a: 1, b: null, c: { d: 'e' } }, ['a', 'b.x', 'c.d', 'c.z'])).toEqual([1, null, 'e', undefined]);
  });
});

describe('batch CSV', () => {
  const reserved = ipInfoView(
    IpInfo.fromPartial({
      ip: '10.0.0.1',
      reserved: ReservedReason.RESERVED_REASON_PRIVATE,
      startIp: '10.0.0.0',
      endIp: '10.255.255.255',
      networks: ['10.0.0.0/8'],
    }),
  );

  it('writes one header and one row per item in order, error items with ip and error only', () => {
    const columns = compileFields('ip,country_code,reserved').columns;
    const text = csvBatch(
      [
        { view },
        { query: '1.2.3', error: 'invalid IP address: 1.2.3' },
        { view: reserved },
        { query: '=cmd|x', error: 'invalid IP address: =cmd|x' },
      ],
      columns,
    );
    expect(parseCsv(text)).toEqual([
      ['ip', 'country_code', 'reserved', 'error'],
      ['8.8.8.8', 'US', '', ''],
      ['1.2.3', '', '', 'invalid IP address: 1.2.3'],
      ['10.0.0.1', '', 'private', ''],
      ["'=cmd|x", '', '', 'invalid IP address: =cmd|x'],
    ]);
  });

  it('leaves the ip cell out when fields= dropped it', () => {
    const batchColumns = csvBatchColumns(compileFields('-ip').columns);
    expect(batchColumns[0]).toBe('country_code');
    expect(batchColumns.at(-1)).toBe('error');
    const row = parseCsv(csvBatchRow({ query: 'nope', error: 'invalid IP address: nope' }, batchColumns))[0];
    expect(row?.at(-1)).toBe('invalid IP address: nope');
    expect(row?.slice(0, -1).every((cell) => cell === '')).toBe(true);
  });
});
