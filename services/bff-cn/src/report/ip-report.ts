import type { ExplainAddressResponse, IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import { ipView } from '../lookups/ip-view.js';

/** The privacy flags in IpInfo.proxy_data order, with the words the report shows. */
export const PRIVACY_FLAGS = [
  ['is_vpn', 'VPN'],
  ['is_tor', 'Tor 出口节点'],
  ['is_data_center', '数据中心'],
  ['is_proxy', '代理'],
  ['is_relay', '中继'],
  ['is_hosting', '主机托管'],
] as const;

/** The sources' names in the report (ExplainAddress names them as the dataset does). */
export const SOURCE_NAMES: Readonly<Record<string, string>> = {
  'geolite2-city': 'GeoLite2 City（MaxMind）',
  asn: 'ASN（RouteViews、DB-IP、NRO）',
  qqwry: '纯真 IP 库（qqwry）',
};

export type ReverseDnsStatus = 'found' | 'none' | 'skipped' | 'unavailable';

/** face A's IP report (`report_generate`; the PDF and xlsx files are drawn from the same object). */
export interface IpReport {
  ip: string;
  generated_at: string;
  dataset_version: string | null;
  /** The one line the site prints ("中国 江苏 南京 电信"; 局域网 for a private address). */
  area: string;
  /** Why a special-purpose address has no location ('private', ...); null otherwise. */
  reserved: string | null;
  geolocation: {
    zh: { country: string | null; province: string | null; city: string | null; isp: string | null };
    en: { country: string | null; region: string | null; city: string | null; isp: string | null };
    country_code: string | null;
    latitude: number | null;
    longitude: number | null;
    zip_code: string | null;
    time_zone: string | null;
    utc_offset: string | null;
  };
  asn: { number: number; name: string | null; organization: string | null } | null;
  privacy: {
    is_proxy: boolean;
    /** Every flag; `rule` names the dataset rule that set it (null when not set). */
    flags: Array<{ flag: string; name: string; set: boolean; rule: string | null }>;
  };
  network: { cidr: string | null; networks: string[]; start_ip: string | null; end_ip: string | null };
  reverse_dns: { status: ReverseDnsStatus; names: string[] };
  /** Each source's own answer, side by side (none for special-purpose addresses). */
  sources: Array<{
    source: string;
    name: string;
    dataset_source_version: string | null;
    read_version: string | null;
    network: string | null;
    fields: Record<string, string>;
  }>;
}

const orNull = (text: string | undefined) => (text === undefined || text === '' ? null : text);

/**
 * The report of one address: `info` is the lookup answer (IpView's Chinese-first names),
 * `explained` ExplainAddress's answer (absent for special-purpose addresses, which are named
 * without the engine).
 */
export function buildIpReport(
  info: IpInfo,
  explained: ExplainAddressResponse | undefined,
  reverseDns: IpReport['reverse_dns'],
  generatedAt: Date,
): IpReport {
  const view = ipView(info);
  const rules = new Map((explained?.privacy ?? []).map(({ flag, rule }) => [flag, rule]));
  return {
    ip: view.ip,
    generated_at: generatedAt.toISOString(),
    dataset_version: orNull(explained?.datasetVersion),
    area: view.area,
    reserved: view.reserved,
    geolocation: {
      zh: { country: view.country, province: view.province, city: view.city, isp: view.isp },
      en: {
        country: view.country_en,
        region: view.region_en,
        city: view.city_en,
        // No English ISP source (services/dataset/docs/sources.md): the AS organisation stands in.
        isp: orNull(info.asn?.isp) ?? view.organization ?? view.asn_name,
      },
      country_code: view.country_code,
      latitude: view.latitude,
      longitude: view.longitude,
      zip_code: view.zip_code,
      time_zone: view.time_zone,
      utc_offset: view.utc_offset,
    },
    asn: view.asn === null ? null : { number: view.asn, name: view.asn_name, organization: view.organization },
    privacy: {
      is_proxy: view.is_proxy,
      flags: PRIVACY_FLAGS.map(([flag, name]) => {
        const set = view.proxy[flag];
        return { flag, name, set, rule: set ? orNull(rules.get(flag)) : null };
      }),
    },
    network: { cidr: view.network, networks: [...info.networks], start_ip: view.start_ip, end_ip: view.end_ip },
    reverse_dns: reverseDns,
    sources: (explained?.sources ?? []).map((source) => ({
      source: source.source,
      name: SOURCE_NAMES[source.source] ?? source.source,
      dataset_source_version: orNull(source.datasetSourceVersion),
      read_version: orNull(source.readVersion),
      network: source.network ?? null,
      fields: { ...source.fields },
    })),
  };
}

/** The download's file name: "IP报告-8.8.8.8-20261123.pdf" (":" of IPv6 replaced for file systems). */
export function reportFileName(report: IpReport, extension: 'pdf' | 'xlsx'): string {
  return `IP报告-${report.ip.replace(/:/g, '-')}-${report.generated_at.slice(0, 10).replace(/-/g, '')}.${extension}`;
}
