import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { envelopeOfError } from '../face-a/envelope.js';
import { splitIpsText, uploadKindOf, xlsxLines } from './batch-input.js';
import { decodeRow, encodeRow, infoRow, invalidRow, reservedRow, INVALID_NOTE, NOT_FOUND_NOTE } from './batch-rows.js';
import { writeBatchXlsx } from './batch-xlsx.js';

/** Face A's answer (envelopeOfError) for the promise's rejection; undefined when it resolves. */
function answered(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => envelopeOfError(error).envelope,
  );
}

const shanghai = IpInfo.fromPartial({
  ip: '114.114.114.114',
  countryCode: 'CN',
  countryName: 'China',
  regionName: 'Jiangsu',
  latitude: 32.06,
  longitude: 118.78,
  zh: { country: '中国', province: '江苏', city: '南京', isp: '电信' },
  asn: { asn: 21859, asnName: 'ZEN-ECN' },
});

async function* iter<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function workbookOf(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('a');
  for (const row of rows) sheet.addRow(row);
  workbook.addWorksheet('b').addRow(['9.9.9.9']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('batch rows', () => {
  it('maps a located address with Chinese names first, and round-trips through the job result line', () => {
    const row = infoRow(' 114.114.114.114', shanghai);
    expect(row).toEqual({
      ip: ' 114.114.114.114',
      country: '中国',
      province: '江苏',
      city: '南京',
      isp: '电信',
      asn: 21859,
      longitude: 118.78,
      latitude: 32.06,
      note: '',
    });
    const line = encodeRow(row);
    expect(line).not.toMatch(/[\r\n]/);
    expect(decodeRow(line)).toEqual(row);
  });

  it('marks invalid, reserved and unknown addresses instead of dropping them', () => {
    expect(invalidRow('1.2.3.999')).toMatchObject({ ip: '1.2.3.999', country: null, note: INVALID_NOTE });
    expect(reservedRow('192.168.1.1', '192.168.1.1', ReservedReason.RESERVED_REASON_PRIVATE).note).toBe('局域网');
    expect(reservedRow('127.0.0.1', '127.0.0.1', ReservedReason.RESERVED_REASON_LOOPBACK).note).toBe('本机地址');
    expect(infoRow('45.1.1.1', IpInfo.fromPartial({ ip: '45.1.1.1' })).note).toBe(NOT_FOUND_NOTE);
    // A line break inside a value cannot split the result line.
    expect(decodeRow(encodeRow(invalidRow('a\nb'))).ip).toBe('a\nb');
  });
});

describe('batch input', () => {
  it('splits the ips text on line breaks, commas (also ，), semicolons and blanks, keeping bad pieces', () => {
    expect(splitIpsText('1.1.1.1\r\n8.8.8.8,114.114.114.114，x;;\n\n 2001:db8::1\tbad')).toEqual([
      '1.1.1.1',
      '8.8.8.8',
      '114.114.114.114',
      'x',
      '2001:db8::1',
      'bad',
    ]);
  });

  it('knows .xlsx, .csv and .txt by extension and refuses anything else in Chinese', () => {
    const file = (filename: string) => ({ filename, mimeType: 'application/octet-stream', data: Buffer.alloc(0) });
    expect(uploadKindOf(file('名单.XLSX'))).toBe('xlsx');
    expect(uploadKindOf(file('a.csv'))).toBe('text');
    expect(uploadKindOf(file('a.txt'))).toBe('text');
    expect(() => uploadKindOf(file('a.xls'))).toThrow('仅支持 .xlsx、.csv、.txt 文件');
    expect(() => uploadKindOf(file('noextension'))).toThrow('仅支持');
  });

  it('reads the first column of the first sheet, or the column titled IP地址 (its title row skipped)', async () => {
    expect(await collect(xlsxLines(await workbookOf([['1.1.1.1', 'x'], [8888], ['bad'], [], ['8.8.8.8']])))).toEqual([
      '1.1.1.1',
      '8888',
      'bad',
      '8.8.8.8',
    ]);
    const titled = await workbookOf([
      [],
      ['名称', 'IP 地址'],
      ['a', '1.1.1.1'],
      ['b', null],
      ['c', { richText: [{ text: '8.8.' }, { text: '8.8' }] }],
    ]);
    expect(await collect(xlsxLines(titled))).toEqual(['1.1.1.1', '', '8.8.8.8']);
  });

  it("reads a good workbook every time (exceljs's own streaming pass now and then lost its workbook part)", async () => {
    const workbook = await workbookOf([['ip'], ['1.1.1.1'], ['8.8.8.8']]);
    for (let read = 0; read < 300; read++) {
      expect(await collect(xlsxLines(workbook))).toEqual(['1.1.1.1', '8.8.8.8']);
    }
  });

  it('reads the first tab, wherever its part is stored; the caller may stop early', async () => {
    const workbook = new ExcelJS.Workbook();
    const stored = workbook.addWorksheet('stored first');
    stored.addRow(['9.9.9.9']);
    const tab = workbook.addWorksheet('first tab');
    for (let row = 0; row < 1_000; row++) tab.addRow([`10.0.${row >> 8}.${row & 255}`]);
    // exceljs writes the tabs by orderNo (not in its typings): the second part becomes the first tab.
    Object.assign(tab, { orderNo: 0 });
    Object.assign(stored, { orderNo: 1 });
    const lines = xlsxLines(Buffer.from(await workbook.xlsx.writeBuffer()));
    const firstThree: string[] = [];
    for await (const line of lines) if (firstThree.push(line) === 3) break;
    expect(firstThree).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2']);
  });

  it('answers code 400 for a file that is not an xlsx workbook', async () => {
    await expect(answered(collect(xlsxLines(Buffer.from('1.1.1.1\n'))))).resolves.toMatchObject({
      code: 400,
      msg: '无法读取 Excel 文件，请上传 .xlsx 格式的文件',
    });
    await expect(answered(collect(xlsxLines(Buffer.from('PK\x03\x04garbage', 'latin1'))))).resolves.toMatchObject({ code: 400 });
  });
});

describe('batch xlsx', () => {
  it('writes the Chinese titles and one numbered row per line, in order', async () => {
    const body = await writeBatchXlsx(iter([infoRow('114.114.114.114', shanghai), invalidRow('nope')]));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from([body]));
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('查询结果');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '序号',
      'IP',
      '国家',
      '省份',
      '城市',
      '运营商',
      'ASN',
      '经度',
      '纬度',
      '备注',
    ]);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      1,
      '114.114.114.114',
      '中国',
      '江苏',
      '南京',
      '电信',
      21859,
      118.78,
      32.06,
    ]);
    expect(sheet.getRow(3).getCell(1).value).toBe(2);
    expect(sheet.getRow(3).getCell(2).value).toBe('nope');
    expect(sheet.getRow(3).getCell(10).value).toBe(INVALID_NOTE);
    expect(sheet.rowCount).toBe(3);
  });
});
