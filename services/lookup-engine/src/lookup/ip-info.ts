import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { IpRecord } from '../dataset/ip-record.js';
import type { LoadedDataset, Resolution } from '../dataset/loaded-dataset.js';
import { zoneTime } from './time-zone.js';

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** The record-derived part of IpInfo: identical for every address of a record, so it is encoded once. */
export function staticIpInfo(record: IpRecord | null): IpInfo {
  if (record === null) return IpInfo.fromPartial({});
  return IpInfo.fromPartial({
    countryCode: orUndefined(record.country_code),
    countryName: orUndefined(record.country_name),
    countryCapital: orUndefined(record.country_capital),
    regionName: orUndefined(record.region_name),
    cityName: orUndefined(record.city_name),
    latitude: orUndefined(record.latitude),
    longitude: orUndefined(record.longitude),
    zipCode: orUndefined(record.zip_code),
    isEu: orUndefined(record.is_eu),
    callingCode: orUndefined(record.calling_code),
    countryFlag: orUndefined(record.country_flag),
    weatherStationCode: orUndefined(record.weather_station_code),
    weatherStationName: orUndefined(record.weather_station_name),
    asn:
      record.asn === null
        ? undefined
        : {
            asn: record.asn.asn,
            asnName: orUndefined(record.asn.asn_name),
            domain: orUndefined(record.asn.domain),
            usageType: orUndefined(record.asn.usage_type),
            isp: orUndefined(record.asn.isp),
            organization: orUndefined(record.asn.organization),
          },
    currency:
      record.currency === null
        ? undefined
        : { code: record.currency.code, name: orUndefined(record.currency.name), symbol: orUndefined(record.currency.symbol) },
    isProxy: record.is_proxy,
    proxyData: {
      isVpn: record.proxy_data.is_vpn,
      isTor: record.proxy_data.is_tor,
      isDataCenter: record.proxy_data.is_data_center,
      isProxy: record.proxy_data.is_proxy,
      isRelay: record.proxy_data.is_relay,
      isHosting: record.proxy_data.is_hosting,
    },
    zh: {
      country: orUndefined(record.zh.country),
      province: orUndefined(record.zh.province),
      city: orUndefined(record.zh.city),
      isp: orUndefined(record.zh.isp),
    },
  });
}

/** The full answer for one address as a message object (the encoder builds the same bytes faster). */
export function toIpInfo(dataset: LoadedDataset, query: string, resolution: Resolution, nowMs: number): IpInfo {
  const info = staticIpInfo(resolution.record);
  info.ip = query;
  info.startIp = dataset.rangeStart(resolution.family, resolution.range);
  info.endIp = dataset.rangeEnd(resolution.family, resolution.range);
  info.networks = dataset.networks(resolution.family, resolution.range);
  info.reserved = resolution.reserved;
  const zone = resolution.record?.time_zone ?? null;
  const time = zone === null ? null : zoneTime(zone, nowMs);
  if (zone !== null && time !== null) info.timeZone = { name: zone, offset: time.offset, currentTime: time.currentTime };
  if (resolution.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) info.reserved = resolution.reserved;
  return info;
}
