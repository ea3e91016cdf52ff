import { ReservedReason, type IpInfo } from '@ipdata/proto/lookup/v1/lookup';

/**
 * What face A shows for one address: Chinese names first (the dataset's `zh` fields: qqwry's
 * wording for Chinese ranges), the English name where no Chinese one exists, null where the
 * dataset has nothing (never invented). `area` is the one line the site prints.
 */
export interface IpView {
  ip: string;
  country: string | null;
  province: string | null;
  city: string | null;
  isp: string | null;
  area: string;
  country_code: string | null;
  country_en: string | null;
  region_en: string | null;
  city_en: string | null;
  latitude: number | null;
  longitude: number | null;
  zip_code: string | null;
  time_zone: string | null;
  utc_offset: string | null;
  calling_code: string | null;
  currency_code: string | null;
  asn: number | null;
  asn_name: string | null;
  organization: string | null;
  network: string | null;
  start_ip: string | null;
  end_ip: string | null;
  is_proxy: boolean;
  proxy: { is_vpn: boolean; is_tor: boolean; is_data_center: boolean; is_proxy: boolean; is_relay: boolean; is_hosting: boolean };
  /** Why a special-purpose address has no location ('private', 'loopback', ...); null otherwise. */
  reserved: string | null;
}

/** Reserved reasons: the code clients may test, and the Chinese words the page shows as `area`. */
const RESERVED: Readonly<Record<number, [code: string, zh: string]>> = {
  [ReservedReason.RESERVED_REASON_PRIVATE]: ['private', '局域网'],
  [ReservedReason.RESERVED_REASON_LOOPBACK]: ['loopback', '本机地址'],
  [ReservedReason.RESERVED_REASON_LINK_LOCAL]: ['link_local', '链路本地地址'],
  [ReservedReason.RESERVED_REASON_MULTICAST]: ['multicast', '组播地址'],
  [ReservedReason.RESERVED_REASON_DOCUMENTATION]: ['documentation', '文档示例地址'],
  [ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS]: ['unspecified', '未指定地址'],
  [ReservedReason.RESERVED_REASON_SHARED_ADDRESS_SPACE]: ['shared_address_space', '运营商共享地址'],
  [ReservedReason.RESERVED_REASON_BENCHMARKING]: ['benchmarking', '基准测试地址'],
  [ReservedReason.RESERVED_REASON_BROADCAST]: ['broadcast', '广播地址'],
  [ReservedReason.RESERVED_REASON_OTHER]: ['other', '保留地址'],
};

const nonEmpty = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/** The first name that exists, Chinese before English. */
const firstOf = (...names: Array<string | undefined>): string | null => {
  for (const name of names) if (name !== undefined && name !== '') return name;
  return null;
};

/** "中国 江苏 南京 电信"; a part equal to the one before it is left out ("香港 香港" → "香港"). */
export function areaText(parts: ReadonlyArray<string | null>): string {
  const shown: string[] = [];
  for (const part of parts) if (part !== null && part !== shown.at(-1)) shown.push(part);
  return shown.join(' ');
}

export function ipView(info: IpInfo): IpView {
  const reserved = RESERVED[info.reserved];
  const zh = info.zh;
  const country = firstOf(zh?.country, info.countryName);
  const province = firstOf(zh?.province, info.regionName);
  const city = firstOf(zh?.city, info.cityName);
  const isp = firstOf(zh?.isp, info.asn?.isp, info.asn?.organization, info.asn?.asnName);
  const proxy = info.proxyData;
  return {
    ip: info.ip,
    country,
    province,
    city,
    isp,
    area: reserved ? reserved[1] : areaText([country, province, city, isp]) || '未知',
    country_code: nonEmpty(info.countryCode),
    country_en: nonEmpty(info.countryName),
    region_en: nonEmpty(info.regionName),
    city_en: nonEmpty(info.cityName),
    latitude: info.latitude ?? null,
    longitude: info.longitude ?? null,
    zip_code: nonEmpty(info.zipCode),
    time_zone: nonEmpty(info.timeZone?.name),
    utc_offset: nonEmpty(info.timeZone?.offset),
    calling_code: nonEmpty(info.callingCode),
    currency_code: nonEmpty(info.currency?.code),
    asn: info.asn?.asn ? info.asn.asn : null,
    asn_name: nonEmpty(info.asn?.asnName),
    organization: nonEmpty(info.asn?.organization),
    network: info.networks[0] ?? null,
    start_ip: nonEmpty(info.startIp),
    end_ip: nonEmpty(info.endIp),
    is_proxy: info.isProxy,
    proxy: {
      is_vpn: proxy?.isVpn ?? false,
      is_tor: proxy?.isTor ?? false,
      is_data_center: proxy?.isDataCenter ?? false,
      is_proxy: proxy?.isProxy ?? false,
      is_relay: proxy?.isRelay ?? false,
      is_hosting: proxy?.isHosting ?? false,
    },
    reserved: reserved ? reserved[0] : null,
  };
}

/** /v2/get_area: the place only. */
export function areaView(view: IpView): Pick<IpView, 'ip' | 'area' | 'country' | 'province' | 'city' | 'isp' | 'country_code'> {
  const { ip, area, country, province, city, isp, country_code } = view;
  return { ip, area, country, province, city, isp, country_code };
}

/** asn_info_ip_search: the autonomous system announcing the address. */
export function asnView(info: IpInfo) {
  return {
    ip: info.ip,
    asn: info.asn?.asn ? info.asn.asn : null,
    asn_name: nonEmpty(info.asn?.asnName),
    organization: nonEmpty(info.asn?.organization),
    domain: nonEmpty(info.asn?.domain),
    usage_type: nonEmpty(info.asn?.usageType),
    isp: firstOf(info.zh?.isp, info.asn?.isp),
    network: info.networks[0] ?? null,
    country: firstOf(info.zh?.country, info.countryName),
    country_code: nonEmpty(info.countryCode),
  };
}
