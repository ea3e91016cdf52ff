import { FLAG, NONE, STRING_FIELD_INDEX, STRING_FIELD_COUNT, type DatasetView, type StringField } from '@ipdata/dataset/format';

/** The stored part of the spec's IP info result for one record (no per-lookup fields). */
export interface IpRecord {
  country_code: string | null;
  country_name: string | null;
  country_capital: string | null;
  continent_code: string | null;
  region_name: string | null;
  city_name: string | null;
  zip_code: string | null;
  latitude: number | null;
  longitude: number | null;
  is_eu: boolean | null;
  calling_code: string | null;
  country_flag: string | null;
  weather_station_code: string | null;
  weather_station_name: string | null;
  /** No source carries elevation: always null (services/dataset/docs/sources.md). */
  elevation: null;
  asn: {
    asn: number;
    asn_name: string | null;
    domain: string | null;
    usage_type: string | null;
    isp: string | null;
    organization: string | null;
  } | null;
  time_zone: string | null;
  currency: { code: string; name: string | null; symbol: string | null } | null;
  is_proxy: boolean;
  proxy_data: {
    is_vpn: boolean;
    is_tor: boolean;
    is_data_center: boolean;
    is_proxy: boolean;
    is_relay: boolean;
    is_hosting: boolean;
  };
  zh: { country: string | null; province: string | null; city: string | null; isp: string | null };
  /** Which privacy rule set the flags (traceability), null when none did. */
  privacy_rule: string | null;
}

/** Decodes record `index` of the view into the object the API answers with. */
export function buildIpRecord(view: DatasetView, index: number): IpRecord {
  const base = index * STRING_FIELD_COUNT;
  const text = (field: StringField): string | null => {
    const id = view.recordStrings[base + STRING_FIELD_INDEX[field]] as number;
    return id === NONE ? null : (view.strings[id] as string);
  };
  const flags = view.recordFlags[index] as number;
  const asnNumber = view.recordAsn[index] as number;
  const latitude = view.recordCoordinates[index * 2] as number;
  const longitude = view.recordCoordinates[index * 2 + 1] as number;
  const currencyCode = text('currency_code');
  const proxy = {
    is_vpn: (flags & FLAG.isVpn) !== 0,
    is_tor: (flags & FLAG.isTor) !== 0,
    is_data_center: (flags & FLAG.isDataCenter) !== 0,
    is_proxy: (flags & FLAG.isProxy) !== 0,
    is_relay: (flags & FLAG.isRelay) !== 0,
    is_hosting: (flags & FLAG.isHosting) !== 0,
  };
  return {
    country_code: text('country_code'),
    country_name: text('country_name'),
    country_capital: text('country_capital'),
    continent_code: text('continent_code'),
    region_name: text('region_name'),
    city_name: text('city_name'),
    zip_code: text('zip_code'),
    latitude: Number.isNaN(latitude) ? null : latitude,
    longitude: Number.isNaN(longitude) ? null : longitude,
    is_eu: (flags & FLAG.isEuKnown) === 0 ? null : (flags & FLAG.isEu) !== 0,
    calling_code: text('calling_code'),
    country_flag: text('country_flag'),
    weather_station_code: text('weather_station_code'),
    weather_station_name: text('weather_station_name'),
    elevation: null,
    asn:
      asnNumber === 0
        ? null
        : {
            asn: asnNumber,
            asn_name: text('asn_name'),
            domain: text('asn_domain'),
            usage_type: text('usage_type'),
            isp: text('isp'),
            organization: text('organization'),
          },
    time_zone: text('time_zone'),
    currency: currencyCode === null ? null : { code: currencyCode, name: text('currency_name'), symbol: text('currency_symbol') },
    // A VPN, Tor exit, proxy or relay hides the real client; hosting alone does not make a proxy.
    is_proxy: proxy.is_vpn || proxy.is_tor || proxy.is_proxy || proxy.is_relay,
    proxy_data: proxy,
    zh: { country: text('zh_country'), province: text('zh_province'), city: text('zh_city'), isp: text('zh_isp') },
    privacy_rule: text('privacy_rule'),
  };
}
