import type { IpReport } from './ip-report.js';

/** One section of the report file: a title and a table (the PDF and the xlsx draw the same). */
export interface ReportSection {
  title: string;
  columns: string[];
  rows: string[][];
}

const EMPTY = '—';
const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? EMPTY : String(value);

const RESERVED_NOTE = '特殊用途地址，无地理位置与数据来源信息';

/** The source fields the report names in Chinese; others keep the source's own field name. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  country_code: '国家代码',
  country_name: '国家',
  state1: '省份/州',
  state2: '地区',
  region_name: '省份',
  city: '城市',
  city_name: '城市',
  district_name: '区县',
  postcode: '邮编',
  latitude: '纬度',
  longitude: '经度',
  timezone: '时区',
  asn: 'ASN',
  organization: '组织',
  owner_domain: '所有者域名',
  isp_domain: '运营商',
  continent_code: '大洲代码',
};

/** The report as titled tables, in reading order. */
export function reportSections(report: IpReport): ReportSection[] {
  const geo = report.geolocation;
  // The dataset keeps GeoLite2's float32 values; shown to 4 decimals (about 11 m), not float noise.
  const coordinates =
    geo.latitude === null || geo.longitude === null ? null : `${geo.latitude.toFixed(4)}, ${geo.longitude.toFixed(4)}`;
  const sections: ReportSection[] = [
    {
      title: '概览',
      columns: ['项目', '内容'],
      rows: [
        ['IP 地址', report.ip],
        ['归属地', report.area],
        ['生成时间', report.generated_at],
        ['数据版本', text(report.dataset_version)],
        ...(report.reserved === null ? [] : [['说明', RESERVED_NOTE]]),
      ],
    },
    {
      title: '地理位置',
      columns: ['项目', '中文', 'English'],
      rows: [
        ['国家', text(geo.zh.country), text(geo.en.country)],
        ['省份/地区', text(geo.zh.province), text(geo.en.region)],
        ['城市', text(geo.zh.city), text(geo.en.city)],
        ['运营商', text(geo.zh.isp), text(geo.en.isp)],
        ['国家代码', text(geo.country_code), text(geo.country_code)],
        ['经纬度', text(coordinates), text(coordinates)],
        [
          '时区',
          text(geo.time_zone),
          geo.utc_offset === null ? text(geo.time_zone) : `${text(geo.time_zone)} (UTC${geo.utc_offset})`,
        ],
      ],
    },
    {
      title: '自治系统（ASN）',
      columns: ['项目', '内容'],
      rows: [
        ['ASN', report.asn === null ? EMPTY : `AS${report.asn.number}`],
        ['名称', text(report.asn?.name)],
        ['组织', text(report.asn?.organization)],
      ],
    },
    {
      title: '网络',
      columns: ['项目', '内容'],
      rows: [
        ['CIDR', text(report.network.cidr)],
        ['起始地址', text(report.network.start_ip)],
        ['结束地址', text(report.network.end_ip)],
      ],
    },
    {
      title: '隐私标记',
      columns: ['标记', '结果', '依据规则'],
      rows: report.privacy.flags.map((flag) => [flag.name, flag.set ? '是' : '否', text(flag.rule)]),
    },
    {
      title: '反向解析（PTR）',
      columns: ['名称'],
      rows:
        report.reverse_dns.names.length > 0
          ? report.reverse_dns.names.map((name) => [name])
          : [
              [
                { none: '无 PTR 记录', skipped: '未查询（特殊用途地址）', unavailable: '查询失败', found: EMPTY }[
                  report.reverse_dns.status
                ],
              ],
            ],
    },
  ];
  for (const source of report.sources) {
    const fields = Object.entries(source.fields).map(([name, value]) => [FIELD_NAMES[name] ?? name, value]);
    sections.push({
      title: `数据来源：${source.name}`,
      columns: ['项目', '内容'],
      rows: [
        ['网段', text(source.network)],
        ['构建所用版本', text(source.dataset_source_version)],
        ['读取版本', text(source.read_version)],
        ...(fields.length > 0 ? fields : [['结果', '该来源无此地址的记录']]),
      ],
    });
  }
  return sections;
}

/** Attribution the source licences ask for (services/dataset/docs/sources.md), printed at the end. */
export const ATTRIBUTION =
  '数据来源：GeoLite2 数据由 MaxMind 提供（https://www.maxmind.com，CC BY-SA 4.0）；ASN 数据来自 RouteViews、DB-IP（https://db-ip.com）与 NRO（CC BY 4.0）；中文地址来自纯真 IP 库（cz88.net）。';
