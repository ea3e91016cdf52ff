import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { UsageChannel, UsageResult } from '@ipdata/proto/events/v1/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// The IP report calls against a real lookup engine (its ExplainAddress reads the installed
// GeoLite2, ASN and qqwry files), Redis and Kafka (fixtures/bff-cn-harness.ts).

const h = new BffCnHarness();
beforeAll(() => h.start());
afterAll(() => h.stop());

/** A POST whose answer may be a file: the raw response, not the JSON envelope. */
async function post(path: string, form: Record<string, string>, from = randomVisitor()) {
  const body = new FormData();
  for (const [name, value] of Object.entries(form)) body.set(name, value);
  const response = await fetch(`${h.base}${path}`, { method: 'POST', headers: { 'x-forwarded-for': from }, body });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

interface ReportData {
  ip: string;
  dataset_version: string | null;
  area: string;
  reserved: string | null;
  geolocation: { zh: Record<string, string | null>; en: Record<string, string | null>; country_code: string | null };
  asn: { number: number } | null;
  privacy: { flags: Array<{ flag: string; set: boolean; rule: string | null }> };
  network: { cidr: string | null; start_ip: string | null; end_ip: string | null };
  reverse_dns: { status: string; names: string[] };
  sources: Array<{ source: string; network: string | null; fields: Record<string, string> }>;
}

describe('IP report', () => {
  it('report_generate: the merged answer in Chinese and English, privacy rules, network, sources side by side; one usage event', async () => {
    // The first ExplainAddress opens the engine's source readers (seconds): a generous timeout.
    const answer = await h.call('/v1/report_generate', { form: { ip: '114.114.114.114' } });
    expect(answer.body).toMatchObject({ code: 200, msg: '成功' });
    const data = answer.body.data as ReportData;
    expect(data).toMatchObject({
      ip: '114.114.114.114',
      dataset_version: '2026.11.01-test',
      area: '中国 江苏 南京 电信',
      reserved: null,
      geolocation: {
        zh: { country: '中国', province: '江苏', city: '南京', isp: '电信' },
        en: { city: 'Nanjing' },
        country_code: 'CN',
      },
      network: { cidr: '114.114.114.0/24', start_ip: '114.114.114.0', end_ip: '114.114.114.255' },
    });
    expect(['found', 'none', 'unavailable']).toContain(data.reverse_dns.status);
    // The sources are the real installed files (the test dataset is synthetic): their own answers.
    expect(data.sources.map((source) => source.source)).toEqual(['geolite2-city', 'asn', 'qqwry']);
    const qqwry = data.sources.find((source) => source.source === 'qqwry');
    expect(qqwry?.fields['country_name']).toBe('中国');
    expect(qqwry?.network).toMatch(/^114\.114\.\d+\.\d+\/\d+$/);
    expect(data.sources.find((source) => source.source === 'geolite2-city')?.fields['country_code']).toBe('CN');
    const event = await h.usage.waitFor((e) => e.meta?.id === answer.headers.get('x-request-id'), {
      what: 'usage',
      timeoutMs: 20_000,
    });
    expect(event).toMatchObject({
      channel: UsageChannel.USAGE_CHANNEL_WEB_CN,
      endpoint: 'report_generate',
      ip: '114.114.114.114',
      countryCode: 'CN',
      province: '江苏',
      result: UsageResult.USAGE_RESULT_FOUND,
      count: 1,
    });
  }, 60_000);

  it('names the rule behind each set privacy flag (1.0.0.1: Cloudflare, hosting in the test dataset)', async () => {
    const data = (await h.call('/v1/report_generate', { form: { ip: '1.0.0.1' } })).body.data as ReportData;
    expect(data.asn?.number).toBe(13335);
    expect(data.privacy.flags.filter((flag) => flag.set)).toEqual([
      { flag: 'is_data_center', name: '数据中心', set: true, rule: 'hosting-asn' },
      { flag: 'is_hosting', name: '主机托管', set: true, rule: 'hosting-asn' },
    ]);
    expect(data.sources.find((source) => source.source === 'asn')?.fields['asn']).toBe('13335');
  });

  it('a special-purpose address is reported without the engine: reason, no sources; bad input is 400', async () => {
    const data = (await h.call('/v1/report_generate', { form: { ip: '10.0.0.1' } })).body.data as ReportData;
    expect(data).toMatchObject({
      ip: '10.0.0.1',
      reserved: 'private',
      area: '局域网',
      sources: [],
      reverse_dns: { status: 'skipped' },
    });
    expect((await h.call('/v1/report_generate', { form: { ip: '1.2.3' } })).body).toMatchObject({ code: 400, data: null });
  });

  it('report_generate_file: a PDF download with the Chinese texts and the IP (read back with pdf-parse)', async () => {
    const { response, bytes } = await post('/v1/report_generate_file', { ip: '114.114.114.114', format: 'pdf' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(
      /^attachment; filename="IP__-114\.114\.114\.114-\d{8}\.pdf"; filename\*=UTF-8''IP%E6%8A%A5%E5%91%8A-114\.114\.114\.114-\d{8}\.pdf$/,
    );
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const { text } = await parser.getText();
    await parser.destroy();
    for (const expected of ['IP 地址报告', '114.114.114.114', '国家', '中国', '江苏', '南京', '纯真 IP 库'])
      expect(text).toContain(expected);
    const event = await h.usage.waitFor((e) => e.meta?.id === response.headers.get('x-request-id'), {
      what: 'usage',
      timeoutMs: 20_000,
    });
    expect(event.endpoint).toBe('report_generate_file');
  });

  it('report_generate_file: pdf by default; xlsx opened with exceljs; failures answer the JSON envelope', async () => {
    const byDefault = await post('/v1/report_generate_file', { ip: '8.8.8.8' });
    expect(byDefault.response.headers.get('content-type')).toBe('application/pdf');
    const { response, bytes } = await post('/v1/report_generate_file', { ip: '8.8.8.8', format: 'xlsx' });
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toContain('.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer); // exceljs's typings predate Buffer's generic parameter
    const rows: string[][] = [];
    workbook.worksheets[0]?.eachRow((row) =>
      rows.push((row.values as Array<string | number | null | undefined>).slice(1).map((value) => String(value ?? ''))),
    );
    expect(rows[0]).toEqual(['IP 地址报告 · 8.8.8.8']);
    expect(rows).toContainEqual(['国家', 'United States', 'United States']);
    expect(rows).toContainEqual(['ASN', 'AS15169']);

    const wrong = await post('/v1/report_generate_file', { ip: '8.8.8.8', format: 'doc' });
    expect(wrong.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(wrong.bytes.toString('utf8'))).toMatchObject({ code: 400, data: null });
  });

  it('each report counts against the visitor limit (5 in the harness): the sixth answers 429 as JSON', async () => {
    const visitor = randomVisitor();
    for (let i = 0; i < 5; i++) {
      const ok = await post(i % 2 === 0 ? '/v1/report_generate' : '/v1/report_generate_file', { ip: '8.8.8.8' }, visitor);
      expect(ok.response.status).toBe(200);
    }
    const refused = await post('/v1/report_generate_file', { ip: '8.8.8.8' }, visitor);
    expect(refused.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ code: 429, msg: '查询过于频繁，请稍后再试' });
  });

  it('report_generate_examples: the configured addresses with Chinese labels', async () => {
    const answer = await h.call('/v1/report_generate_examples');
    expect(answer.body.code).toBe(200);
    const list = answer.body.data as Array<{ ip: string; label: string; family: string }>;
    expect(list).toContainEqual({ ip: '8.8.8.8', label: 'Google 公共 DNS', family: 'ipv4' });
    expect(list).toContainEqual({ ip: '2001:4860:4860::8888', label: 'Google 公共 DNS（IPv6）', family: 'ipv6' });
    expect(list.map((example) => example.ip)).toEqual(expect.arrayContaining(['114.114.114.114', '223.5.5.5', '1.1.1.1']));
  });
});
