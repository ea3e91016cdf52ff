import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { UsageChannel, UsageResult } from '@ipdata/proto/events/v1/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VisitorIds } from '@ipdata/common';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// query_ip_batch_zone and upload_ip_xlsx against the real stack: lookup engine, Redis, Kafka,
// MongoDB for the shared bulk engine (fixtures/bff-cn-harness.ts).

const h = new BffCnHarness({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024), BATCH_RATE_LIMIT: '30', BATCH_MAX_ROWS: '10000' });
beforeAll(() => h.start(), 120_000);
afterAll(() => h.stop());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TITLES = ['序号', 'IP', '国家', '省份', '城市', '运营商', 'ASN', '经度', '纬度', '备注'];
const UA = 'batch-test-browser';

interface Sheet {
  status: number;
  headers: Headers;
  titles: unknown[];
  rows: unknown[][];
}

async function post(path: string, body: FormData, from: string): Promise<Response> {
  return fetch(`${h.base}${path}`, { method: 'POST', body, headers: { 'x-forwarded-for': from, 'user-agent': UA } });
}

async function sheetOf(response: Response): Promise<Sheet> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(XLSX);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([Buffer.from(await response.arrayBuffer())]));
  const sheet = workbook.worksheets[0]!;
  const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  const rows: unknown[][] = [];
  for (let n = 2; n <= sheet.rowCount; n++) rows.push(values(n));
  return { status: response.status, headers: response.headers, titles: values(1), rows };
}

async function batchText(ips: string, from = randomVisitor()): Promise<Response> {
  const form = new FormData();
  form.set('ips', ips);
  return post('/v1/query_ip_batch_zone', form, from);
}

async function upload(data: Buffer | string, filename: string, from = randomVisitor()): Promise<Response> {
  const form = new FormData();
  // A copy as a plain Uint8Array: the DOM lib's BlobPart does not take Node's Buffer type.
  form.set('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), filename);
  return post('/v1/upload_ip_xlsx', form, from);
}

async function envelope(response: Response): Promise<{ code: number; msg: string; data: unknown }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('名单');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const padded = (cells: unknown[]) => cells.concat(Array<unknown>(10 - cells.length).fill(undefined)).slice(0, 10);

describe('query_ip_batch_zone', () => {
  it('answers an xlsx with Chinese titles, one row per input in order, invalid and reserved lines marked', async () => {
    const from = randomVisitor();
    const response = await batchText('114.114.114.114\n8.8.8.8,1.2.3\r\n\n192.168.1.1，45.1.1.1 ::1\n2001:4860::8888', from);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.xlsx"; filename\*=UTF-8''/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const sheet = await sheetOf(response);
    expect(sheet.titles).toEqual(TITLES);
    expect(sheet.rows.map((row) => padded(row))).toEqual([
      padded([1, '114.114.114.114', '中国', '江苏', '南京', '电信', undefined, 118.7778, 32.0617]),
      expect.arrayContaining([2, '8.8.8.8', 'United States']),
      padded([3, '1.2.3', undefined, undefined, undefined, undefined, undefined, undefined, undefined, '无效的 IP 地址']),
      padded([4, '192.168.1.1', undefined, undefined, undefined, undefined, undefined, undefined, undefined, '局域网']),
      padded([5, '45.1.1.1', undefined, undefined, undefined, undefined, undefined, undefined, undefined, '未找到位置信息']),
      padded([6, '::1', undefined, undefined, undefined, undefined, undefined, undefined, undefined, '本机地址']),
      expect.arrayContaining([7, '2001:4860::8888', 'Germany']),
    ]);
    expect(sheet.rows[1]![6]).toBe(15169);

    // Usage: the 4 looked-up addresses count as lookups of this visitor, the 3 others as free.
    const visitorId = new VisitorIds('test-visitor-id-secret-0123456789abcdef').of(from, UA);
    await h.usage.waitFor(
      () => {
        const mine = h.usage.events.filter((e) => e.visitorId === visitorId);
        return mine.reduce((n, e) => n + e.count + e.freeCount, 0) >= 7;
      },
      { what: 'the batch usage events', timeoutMs: 20_000 },
    );
    const mine = h.usage.events.filter((e) => e.visitorId === visitorId);
    expect(mine.every((e) => e.endpoint === 'query_ip_batch_zone' && e.channel === UsageChannel.USAGE_CHANNEL_WEB_CN)).toBe(true);
    expect(mine.reduce((n, e) => n + e.count, 0)).toBe(4);
    expect(mine.reduce((n, e) => n + e.freeCount, 0)).toBe(3);
    expect(mine.find((e) => e.countryCode === 'CN')).toMatchObject({
      province: '江苏',
      count: 1,
      result: UsageResult.USAGE_RESULT_FOUND,
    });
    expect(new Set(mine.map((e) => e.meta?.id)).size).toBe(mine.length);
  });

  it('refuses empty input and more than 10,000 rows with a Chinese msg (code 400)', async () => {
    expect(await envelope(await batchText(' ,\n'))).toEqual({ code: 400, msg: '请输入IP 地址', data: null });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join('\n');
    const answer = await envelope(await batchText(tooMany));
    expect(answer.code).toBe(400);
    expect(answer.msg).toContain('单次最多查询 10000 个 IP');
  });

  it('limits batch calls per visitor on their own counter (429), not per address', async () => {
    const from = randomVisitor();
    for (let i = 0; i < 30; i++) expect((await batchText('8.8.8.8', from)).status).toBe(200);
    const refused = await envelope(await batchText('8.8.8.8', from));
    expect(refused).toEqual({ code: 429, msg: '批量查询过于频繁，请稍后再试', data: null });
    // Another visitor, and single lookups of this one (their own counter), are not affected.
    expect((await batchText('8.8.8.8')).status).toBe(200);
    expect((await h.call('/v1/ip_search_zone', { form: { ip: '8.8.8.8' }, from })).body.code).toBe(200);
  });

  it('looks up 10,000 addresses in one call (the time is printed, a measurement: not asserted)', async () => {
    const ips = Array.from({ length: 10_000 }, (_, i) =>
      i % 4 === 0
        ? `114.114.114.${i % 256}`
        : i % 4 === 1
          ? `8.8.8.${i % 256}`
          : i % 4 === 2
            ? `1.0.0.${i % 256}`
            : `45.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
    );
    // End to end as the visitor sees it: the POST until the last byte of the file (parsing it here is not counted).
    const started = performance.now();
    const response = await batchText(ips.join('\n'));
    const body = Buffer.from(await response.arrayBuffer());
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`query_ip_batch_zone: 10,000 addresses answered as xlsx in ${seconds.toFixed(2)} s\n`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(XLSX);
    const sheet = await sheetOf(new Response(body, { headers: response.headers }));
    expect(sheet.rows).toHaveLength(10_000);
    expect(sheet.rows[0]!.slice(0, 3)).toEqual([1, '114.114.114.0', '中国']);
    expect(sheet.rows[9_999]![0]).toBe(10_000);
    expect(sheet.rows[9_999]![1]).toBe(ips[9_999]);
  }, 60_000);
});

describe('upload_ip_xlsx', () => {
  it('reads an .xlsx (the column titled IP地址), a .csv and a .txt into the same answer', async () => {
    const book = await workbook([
      ['名称', 'IP地址'],
      ['a', '114.114.114.114'],
      ['b', '1.2.3'],
      ['c', '10.1.2.3'],
    ]);
    const fromXlsx = await sheetOf(await upload(book, '名单.xlsx'));
    const fromCsv = await sheetOf(await upload('name,ip\na,114.114.114.114\nb,1.2.3\nc,10.1.2.3\n', 'list.csv'));
    const fromTxt = await sheetOf(await upload('\uFEFF114.114.114.114\r\n1.2.3\r\n10.1.2.3\r\n', 'list.txt'));
    for (const sheet of [fromXlsx, fromCsv, fromTxt]) {
      expect(sheet.titles).toEqual(TITLES);
      expect(sheet.rows.map((row) => [row[0], row[1], row[2], row[9]])).toEqual([
        [1, '114.114.114.114', '中国', undefined],
        [2, '1.2.3', undefined, '无效的 IP 地址'],
        [3, '10.1.2.3', undefined, '局域网'],
      ]);
    }
  });

  it('reads the first column of an .xlsx without an IP title', async () => {
    const sheet = await sheetOf(await upload(await workbook([['8.8.8.8', 'x'], [], ['bad']]), 'a.xlsx'));
    expect(sheet.rows.map((row) => [row[0], row[1], row[9]])).toEqual([
      [1, '8.8.8.8', undefined],
      [2, 'bad', '无效的 IP 地址'],
    ]);
  });

  it('refuses other files, broken workbooks, too many rows and too large uploads with Chinese msgs', async () => {
    expect(await envelope(await upload('1.1.1.1', 'a.xls'))).toEqual({
      code: 400,
      msg: '仅支持 .xlsx、.csv、.txt 文件',
      data: null,
    });
    expect((await envelope(await upload('not a workbook', 'a.xlsx'))).msg).toBe('无法读取 Excel 文件，请上传 .xlsx 格式的文件');
    expect(await envelope(await upload('\n\n', 'a.txt'))).toEqual({ code: 400, msg: '文件中没有 IP 地址', data: null });
    const rows = Array.from({ length: 10_001 }, (_, i) => [`10.0.${i >> 8}.${i & 255}`]);
    const overXlsx = await envelope(await upload(await workbook(rows), 'big.xlsx'));
    expect(overXlsx.msg).toContain('单次最多查询 10000 个 IP');
    const overCsv = await envelope(await upload(rows.map((r) => r[0]).join('\n'), 'big.csv'));
    expect(overCsv.msg).toContain('单次最多查询 10000 个 IP');
    const huge = await envelope(await upload(Buffer.alloc(2 * 1024 * 1024 + 1, 0x31), 'huge.txt'));
    expect(huge).toEqual({ code: 400, msg: '上传文件过大（最大 2 MB）', data: null });
  });
});
