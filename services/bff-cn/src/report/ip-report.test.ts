import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { IpInfo, ReservedReason, type ExplainAddressResponse } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { buildIpReport, reportFileName, type IpReport } from './ip-report.js';
import { renderReportPdf } from './report-pdf.js';
import { reportSections } from './report-sections.js';
import { renderReportXlsx } from './report-xlsx.js';

const GENERATED = new Date('2026-11-23T08:00:00Z');

/** ExplainAddress's answer for 8.8.8.8 in the shape the engine gives (values from the real sources). */
function explained(): ExplainAddressResponse {
  const info = IpInfo.fromPartial({
    ip: '8.8.8.8',
    countryCode: 'US',
    countryName: 'United States',
    regionName: 'California',
    cityName: 'Mountain View',
    latitude: 37.4056,
    longitude: -122.0775,
    timeZone: { name: 'America/Los_Angeles', offset: '-08:00', currentTime: '2026-11-23T00:00:00-08:00' },
    asn: { asn: 15169, asnName: 'Google LLC', organization: 'Google LLC' },
    proxyData: { isDataCenter: true, isHosting: true },
    zh: { country: '美国', province: '加利福尼亚州', city: '山景城', isp: '谷歌' },
    startIp: '8.8.8.0',
    endIp: '8.8.8.255',
    networks: ['8.8.8.0/24'],
  });
  return {
    info,
    datasetVersion: '2026.09.16-29aca589',
    privacy: [
      { flag: 'is_data_center', rule: 'hosting-asn' },
      { flag: 'is_hosting', rule: 'hosting-asn' },
    ],
    sources: [
      {
        source: 'geolite2-city',
        datasetSourceVersion: '2.3.2026061719',
        readVersion: '2.3.2026061719',
        network: '8.8.8.0/24',
        fields: { country_code: 'US', city: 'Mountain View', timezone: 'America/Los_Angeles' },
      },
      {
        source: 'asn',
        datasetSourceVersion: '2.3.2026061719',
        readVersion: '2.3.2026061719',
        network: '8.8.8.0/24',
        fields: { asn: '15169', organization: 'Google LLC' },
      },
      {
        source: 'qqwry',
        datasetSourceVersion: '2026.9.16',
        readVersion: '2026.9.16',
        network: '8.8.8.0/24',
        fields: { country_name: '美国', isp_domain: '谷歌' },
      },
    ],
  };
}

function sampleReport(): IpReport {
  const answer = explained();
  return buildIpReport(answer.info as IpInfo, answer, { status: 'found', names: ['dns.google'] }, GENERATED);
}

describe('IP report model', () => {
  it('puts Chinese names first, English beside them, ASN, network, privacy rules and sources', () => {
    const report = sampleReport();
    expect(report).toMatchObject({
      ip: '8.8.8.8',
      generated_at: '2026-11-23T08:00:00.000Z',
      dataset_version: '2026.09.16-29aca589',
      area: '美国 加利福尼亚州 山景城 谷歌',
      reserved: null,
      geolocation: {
        zh: { country: '美国', province: '加利福尼亚州', city: '山景城', isp: '谷歌' },
        en: { country: 'United States', region: 'California', city: 'Mountain View', isp: 'Google LLC' },
        country_code: 'US',
        time_zone: 'America/Los_Angeles',
        utc_offset: '-08:00',
      },
      asn: { number: 15169, name: 'Google LLC', organization: 'Google LLC' },
      network: { cidr: '8.8.8.0/24', start_ip: '8.8.8.0', end_ip: '8.8.8.255' },
      reverse_dns: { status: 'found', names: ['dns.google'] },
    });
    expect(report.privacy.flags.filter((flag) => flag.set)).toEqual([
      { flag: 'is_data_center', name: '数据中心', set: true, rule: 'hosting-asn' },
      { flag: 'is_hosting', name: '主机托管', set: true, rule: 'hosting-asn' },
    ]);
    expect(report.privacy.flags.find((flag) => flag.flag === 'is_tor')).toEqual({
      flag: 'is_tor',
      name: 'Tor 出口节点',
      set: false,
      rule: null,
    });
    expect(report.sources.map((source) => [source.source, source.name, source.network])).toEqual([
      ['geolite2-city', 'GeoLite2 City（MaxMind）', '8.8.8.0/24'],
      ['asn', 'ASN（RouteViews、DB-IP、NRO）', '8.8.8.0/24'],
      ['qqwry', '纯真 IP 库（qqwry）', '8.8.8.0/24'],
    ]);
    expect(reportFileName(report, 'pdf')).toBe('IP报告-8.8.8.8-20261123.pdf');
  });

  it('a special-purpose address: its reason, no sources, no location', () => {
    const info = IpInfo.fromPartial({ ip: '10.0.0.1', reserved: ReservedReason.RESERVED_REASON_PRIVATE });
    const report = buildIpReport(info, undefined, { status: 'skipped', names: [] }, GENERATED);
    expect(report).toMatchObject({ area: '局域网', reserved: 'private', dataset_version: null, asn: null, sources: [] });
    expect(reportSections(report)[0]?.rows).toContainEqual(['说明', '特殊用途地址，无地理位置与数据来源信息']);
    expect(reportFileName({ ...report, ip: '2001:db8::1' }, 'xlsx')).toBe('IP报告-2001-db8--1-20261123.xlsx');
  });
});

describe('IP report files', () => {
  it('PDF: Chinese text and the IP read back, fonts embedded as subsets (small file)', async () => {
    const pdf = await renderReportPdf(sampleReport());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Whole Noto Sans SC is 1.5 MB; a subset of the glyphs used is a few tens of KB.
    expect(pdf.length).toBeLessThan(150_000);
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    const { text } = await parser.getText();
    await parser.destroy();
    for (const expected of [
      'IP 地址报告',
      '8.8.8.8',
      '国家',
      '美国',
      '加利福尼亚州',
      '数据中心',
      'hosting-asn',
      'AS15169',
      'dns.google',
      'United States',
      '纯真 IP 库',
    ])
      expect(text).toContain(expected);
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2|\/FontFile3/);
  });

  it('PDF: pdftoppm renders the first page to a PNG that is not blank', async () => {
    const dir = join(process.cwd(), 'var', 'test-output', 'report-pdf');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report.pdf');
    writeFileSync(file, await renderReportPdf(sampleReport()));
    // Debian's poppler-utils (scripts/test/install-pdf-tools.sh, run by `make test`).
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'report')]);
    const png = readFileSync(join(dir, 'report.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The same page as a grey map (PGM, plain bytes after the header) to count ink.
    const pgm = execFileSync('/usr/bin/pdftoppm', ['-gray', '-r', '40', '-f', '1', '-l', '1', '-singlefile', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
    expect(header).not.toBeNull();
    const pixels = pgm.subarray((header as RegExpExecArray)[0].length);
    const dark = pixels.reduce((count, value) => count + (value < 160 ? 1 : 0), 0);
    expect(dark / pixels.length).toBeGreaterThan(0.01);
    expect(dark / pixels.length).toBeLessThan(0.5);
  });

  it('xlsx: one sheet with Chinese section titles and the values', async () => {
    const workbook = new ExcelJS.Workbook();
    // exceljs's typings predate Buffer's generic parameter.
    await workbook.xlsx.load((await renderReportXlsx(sampleReport())) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['IP 报告']);
    const rows: string[][] = [];
    workbook.worksheets[0]?.eachRow((row) =>
      rows.push((row.values as Array<string | number | null | undefined>).slice(1).map((value) => String(value ?? ''))),
    );
    expect(rows[0]).toEqual(['IP 地址报告 · 8.8.8.8']);
    expect(rows).toContainEqual(['地理位置']);
    expect(rows).toContainEqual(['国家', '美国', 'United States']);
    expect(rows).toContainEqual(['ASN', 'AS15169']);
    expect(rows).toContainEqual(['数据中心', '是', 'hosting-asn']);
    expect(rows).toContainEqual(['数据来源：纯真 IP 库（qqwry）']);
    expect(rows).toContainEqual(['运营商', '谷歌']);
  });
});
