import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { areaText, asnView, ipView } from './ip-view.js';

describe('face A IP view', () => {
  it('puts Chinese names first and falls back to English, null where the dataset has nothing', () => {
    const view = ipView(
      IpInfo.fromPartial({
        ip: '114.114.114.114',
        countryCode: 'CN',
        countryName: 'China',
        regionName: 'Jiangsu',
        cityName: 'Nanjing',
        zh: { country: '中国', province: '江苏', city: '南京', isp: '电信' },
        networks: ['114.114.114.0/24'],
      }),
    );
    expect(view).toMatchObject({
      country: '中国',
      province: '江苏',
      city: '南京',
      isp: '电信',
      area: '中国 江苏 南京 电信',
      country_en: 'China',
      city_en: 'Nanjing',
      network: '114.114.114.0/24',
      asn: null,
      zip_code: null,
      reserved: null,
    });
    const english = ipView(
      IpInfo.fromPartial({
        ip: '8.8.8.8',
        countryCode: 'US',
        countryName: 'United States',
        cityName: 'Mountain View',
        asn: { asn: 15169, asnName: 'Google LLC' },
      }),
    );
    expect(english).toMatchObject({
      country: 'United States',
      province: null,
      city: 'Mountain View',
      isp: 'Google LLC',
      asn: 15169,
    });
    expect(english.area).toBe('United States Mountain View Google LLC');
  });

  it('names special-purpose addresses in Chinese and marks unknown places', () => {
    const lan = ipView(IpInfo.fromPartial({ ip: '192.168.1.1', reserved: ReservedReason.RESERVED_REASON_PRIVATE }));
    expect(lan).toMatchObject({ area: '局域网', reserved: 'private', country: null, asn: null });
    expect(ipView(IpInfo.fromPartial({ ip: '5.5.5.5' })).area).toBe('未知');
  });

  it('joins area parts without repeating one equal to the part before', () => {
    expect(areaText(['中国', '香港', '香港', null, '电讯盈科'])).toBe('中国 香港 电讯盈科');
  });

  it('answers the ASN of an address', () => {
    const asn = asnView(
      IpInfo.fromPartial({
        ip: '1.0.0.1',
        countryCode: 'AU',
        countryName: 'Australia',
        asn: { asn: 13335, asnName: 'Cloudflare, Inc.', usageType: 'DCH' },
        networks: ['1.0.0.0/24'],
      }),
    );
    expect(asn).toEqual({
      ip: '1.0.0.1',
      asn: 13335,
      asn_name: 'Cloudflare, Inc.',
      organization: null,
      domain: null,
      usage_type: 'DCH',
      isp: null,
      network: '1.0.0.0/24',
      country: 'Australia',
      country_code: 'AU',
    });
  });
});
