import {
  bigIntToWords,
  formatIpv4,
  formatIpv6,
  ipv4RangeToCidrs,
  ipv6RangeToCidrs,
  parseIpv4,
  parseIpv6,
  wordsToBigInt,
} from '@ipdata/common/ip';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafPaths } from './field-set.js';
import { IP_INFO_FIELDS, PRIVACY_FIELDS, ipInfoView, privacyView, reservedWord } from './ip-info.view.js';

/** The spec's IP info result (product spec section 3), in order, plus network and reserved. */
const SPEC_FIELDS = [
  'ip',
  'country_code',
  'country_name',
  'country_capital',
  'region_name',
  'city_name',
  'latitude',
  'longitude',
  'zip_code',
  'is_eu',
  'calling_code',
  'country_flag',
  'weather_station_code',
  'weather_station_name',
  'elevation',
  'asn',
  'time_zone',
  'currency',
  'is_proxy',
  'proxy_data',
  'start_ip',
  'end_ip',
  'network',
  'reserved',
];

function fullInfo(overrides: Partial<IpInfo> = {}): IpInfo {
  return IpInfo.fromPartial({
    ip: '8.8.8.8',
    countryCode: 'US',
    countryName: 'United States',
    countryCapital: 'Washington',
    regionName: 'California',
    cityName: 'Mountain View',
    latitude: 37.4056,
    longitude: -122.0775,
    zipCode: '94043',
    isEu: false,
    callingCode: '1',
    countryFlag: '🇺🇸',
    weatherStationCode: 'USCA0746',
    weatherStationName: 'Mountain View',
    elevation: 32,
    asn: { asn: 15169, asnName: 'GOOGLE', domain: 'google.com', usageType: 'DCH', isp: 'Google LLC', organization: 'Google LLC' },
    timeZone: { name: 'America/Los_Angeles', offset: '-07:00', currentTime: '2026-05-01T10:00:00-07:00' },
    currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
    isProxy: true,
    proxyData: { isVpn: true, isTor: false, isDataCenter: true, isProxy: false, isRelay: false, isHosting: true },
    startIp: '8.8.8.0',
    endIp: '8.8.8.255',
    networks: ['8.8.8.0/24'],
    zh: { country: '美国' },
    ...overrides,
  });
}

describe('ipInfoView', () => {
  it('maps every spec field, snake_case, in spec order, with nested objects', () => {
    const view = ipInfoView(fullInfo());
    expect(Object.keys(view)).toEqual(SPEC_FIELDS);
    expect(view).toEqual({
      ip: '8.8.8.8',
      country_code: 'US',
      country_name: 'United States',
      country_capital: 'Washington',
      region_name: 'California',
      city_name: 'Mountain View',
      latitude: 37.4056,
      longitude: -122.0775,
      zip_code: '94043',
      is_eu: false,
      calling_code: '1',
      country_flag: '🇺🇸',
      weather_station_code: 'USCA0746',
      weather_station_name: 'Mountain View',
      elevation: 32,
      asn: {
        asn: 15169,
        asn_name: 'GOOGLE',
        domain: 'google.com',
        usage_type: 'DCH',
        isp: 'Google LLC',
        organization: 'Google LLC',
      },
      time_zone: { name: 'America/Los_Angeles', offset: '-07:00', current_time: '2026-05-01T10:00:00-07:00' },
      currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
      is_proxy: true,
      proxy_data: { is_vpn: true, is_tor: false, is_data_center: true, is_proxy: false, is_relay: false, is_hosting: true },
      start_ip: '8.8.8.0',
      end_ip: '8.8.8.255',
      network: '8.8.8.0/24',
      reserved: null,
    });
    // Nested keys in spec order too (JSON and CSV follow object order).
    expect(Object.keys(view.asn ?? {})).toEqual(['asn', 'asn_name', 'domain', 'usage_type', 'isp', 'organization']);
    expect(Object.keys(view.time_zone ?? {})).toEqual(['name', 'offset', 'current_time']);
    expect(Object.keys(view.currency ?? {})).toEqual(['code', 'name', 'symbol']);
    expect(Object.keys(view.proxy_data ?? {})).toEqual([
      'is_vpn',
      'is_tor',
      'is_data_center',
      'is_proxy',
      'is_relay',
      'is_hosting',
    ]);
    expect(view).not.toHaveProperty('zh');
  });

  it('keeps IP_INFO_FIELDS equal to the shape it builds (fields= and CSV columns rely on it)', () => {
    const view = ipInfoView(fullInfo()) as unknown as Record<string, unknown>;
    expect(IP_INFO_FIELDS.map((field) => field.name)).toEqual(Object.keys(view));
    for (const field of IP_INFO_FIELDS) {
      if (field.children !== undefined) expect(Object.keys(view[field.name] as object)).toEqual(field.children);
      else expect(typeof view[field.name] === 'object' && view[field.name] !== null).toBe(false);
    }
    const privacy = privacyView(fullInfo()) as unknown as Record<string, unknown>;
    expect(PRIVACY_FIELDS.map((field) => field.name)).toEqual(Object.keys(privacy));
    expect(leafPaths(PRIVACY_FIELDS)).toContain('proxy_data.is_vpn');
  });

  it('answers null for every field without a source, never omitting or inventing one', () => {
    const view = ipInfoView(
      IpInfo.fromPartial({ ip: '1.2.3.4', startIp: '1.2.3.0', endIp: '1.2.3.255', networks: ['1.2.3.0/24'] }),
    );
    expect(Object.keys(view)).toEqual(SPEC_FIELDS);
    for (const field of SPEC_FIELDS) {
      if (['ip', 'start_ip', 'end_ip', 'network'].includes(field)) continue;
      expect(view[field as keyof typeof view], field).toBeNull();
    }
    // proto3's default false is not a fact about the address: no record, no is_proxy.
    expect(view.is_proxy).toBeNull();
  });

  it('answers null inside nested objects for their missing optional fields', () => {
    const view = ipInfoView(fullInfo({ asn: { asn: 64500 }, currency: { code: 'EUR' } }));
    expect(view.asn).toEqual({ asn: 64500, asn_name: null, domain: null, usage_type: null, isp: null, organization: null });
    expect(view.currency).toEqual({ code: 'EUR', name: null, symbol: null });
  });

  it('keeps an engine answer of "not a proxy" as false', () => {
    const view = ipInfoView(
      fullInfo({
        isProxy: false,
        proxyData: { isVpn: false, isTor: false, isDataCenter: false, isProxy: false, isRelay: false, isHosting: false },
      }),
    );
    expect(view.is_proxy).toBe(false);
    expect(view.proxy_data?.is_vpn).toBe(false);
  });

  it('answers a reserved address with its range and reason and nothing location-related', () => {
    // Even if the engine sent data, the reserved answer carries none of it.
    const view = ipInfoView(
      fullInfo({
        ip: '10.1.2.3',
        startIp: '10.0.0.0',
        endIp: '10.255.255.255',
        networks: ['10.0.0.0/8'],
        reserved: ReservedReason.RESERVED_REASON_PRIVATE,
      }),
    );
    expect(Object.keys(view)).toEqual(SPEC_FIELDS);
    expect(view).toMatchObject({
      ip: '10.1.2.3',
      start_ip: '10.0.0.0',
      end_ip: '10.255.255.255',
      network: '10.0.0.0/8',
      reserved: 'private',
    });
    for (const field of SPEC_FIELDS) {
      if (['ip', 'start_ip', 'end_ip', 'network', 'reserved'].includes(field)) continue;
      expect(view[field as keyof typeof view], field).toBeNull();
    }
  });

  it('names every reserved reason as a lowercase word', () => {
    const expected: Record<number, string | null> = {
      [ReservedReason.RESERVED_REASON_UNSPECIFIED]: null,
      [ReservedReason.RESERVED_REASON_PRIVATE]: 'private',
      [ReservedReason.RESERVED_REASON_LOOPBACK]: 'loopback',
      [ReservedReason.RESERVED_REASON_LINK_LOCAL]: 'link_local',
      [ReservedReason.RESERVED_REASON_MULTICAST]: 'multicast',
      [ReservedReason.RESERVED_REASON_DOCUMENTATION]: 'documentation',
      [ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS]: 'unspecified',
      [ReservedReason.RESERVED_REASON_SHARED_ADDRESS_SPACE]: 'shared_address_space',
      [ReservedReason.RESERVED_REASON_BENCHMARKING]: 'benchmarking',
      [ReservedReason.RESERVED_REASON_BROADCAST]: 'broadcast',
      [ReservedReason.RESERVED_REASON_OTHER]: 'other',
    };
    for (const [reason, word] of Object.entries(expected)) expect(reservedWord(Number(reason))).toBe(word);
    // Every enum value is covered, and a value the proto gains later is still "reserved".
    const values = Object.values(ReservedReason as Record<string, string | number>).filter(
      (value): value is number => typeof value === 'number' && value >= 0,
    );
    expect(values.sort((x, y) => x - y)).toEqual(Object.keys(expected).map(Number));
    expect(reservedWord(ReservedReason.UNRECOGNIZED)).toBe('other');
    expect(reservedWord(42 as ReservedReason)).toBe('other');
    expect(reservedWord(undefined)).toBeNull();
  });

  it('echoes the address in canonical form', () => {
    const v6 = (ip: string) =>
      ipInfoView(fullInfo({ ip, startIp: '2001:db8::', endIp: '2001:db8::ffff', networks: ['2001:db8::/112'] }));
    expect(v6('2001:DB8:0:0:0:0:0:1').ip).toBe('2001:db8::1');
    expect(v6('2001:0db8::0001').ip).toBe('2001:db8::1');
    expect(v6('2001:DB8::1').network).toBe('2001:db8::/112');
    // The engine answers an IPv4-mapped address as IPv4 (IPv4 range), and so does the view.
    expect(ipInfoView(fullInfo({ ip: '::ffff:8.8.8.8' }))).toMatchObject({ ip: '8.8.8.8', network: '8.8.8.0/24' });
    expect(ipInfoView(fullInfo({ ip: '::FFFF:808:808' }))).toMatchObject({ ip: '8.8.8.8', network: '8.8.8.0/24' });
    expect(ipInfoView(fullInfo({ ip: '8.8.8.8' })).ip).toBe('8.8.8.8');
    expect(privacyView(fullInfo({ ip: '::ffff:8.8.8.8' })).ip).toBe('8.8.8.8');
  });

  it('picks the one network that contains the address from an IPv4 range of several CIDRs', () => {
    // 10.0.0.1 - 10.0.0.6 = .1/32, .2/31, .4/31, .6/32
    const networks = ipv4RangeToCidrs(parseIpv4('10.0.0.1'), parseIpv4('10.0.0.6'));
    const at = (ip: string) => ipInfoView(fullInfo({ ip, startIp: '10.0.0.1', endIp: '10.0.0.6', networks })).network;
    expect(at('10.0.0.1')).toBe('10.0.0.1/32');
    expect(at('10.0.0.2')).toBe('10.0.0.2/31');
    expect(at('10.0.0.3')).toBe('10.0.0.2/31');
    expect(at('10.0.0.5')).toBe('10.0.0.4/31');
    expect(at('10.0.0.6')).toBe('10.0.0.6/32');
    // Outside every block (never sent by the engine): null, not a wrong block.
    expect(at('10.0.0.7')).toBeNull();
    // The top half of the space (values above 2^31) and /0.
    expect(ipInfoView(fullInfo({ ip: '200.1.2.3', networks: ['128.0.0.0/1'] })).network).toBe('128.0.0.0/1');
    expect(ipInfoView(fullInfo({ ip: '255.255.255.254', networks: ['0.0.0.0/0'] })).network).toBe('0.0.0.0/0');
    expect(ipInfoView(fullInfo({ ip: '1.2.3.4', networks: [] })).network).toBeNull();
  });

  it('picks the containing network for random IPv4 ranges (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (x, y, at) => {
          const first = Math.min(x, y);
          const last = Math.max(x, y);
          const address = Math.min(last, first + Math.floor(at * (last - first + 1)));
          const networks = ipv4RangeToCidrs(first, last);
          const network = ipInfoView(fullInfo({ ip: formatIpv4(address), networks })).network;
          expect(network).not.toBeNull();
          const [base, length] = (network as string).split('/') as [string, string];
          const size = 2 ** (32 - Number(length));
          expect(address >= parseIpv4(base) && address < parseIpv4(base) + size).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('picks the containing network for IPv6 ranges of several CIDRs (fixed and property)', () => {
    const words = new Uint32Array(4);
    const value = (text: string) => (parseIpv6(text, words), wordsToBigInt(words));
    const text = (v: bigint) => (bigIntToWords(v, words), formatIpv6(words));
    const networks = ipv6RangeToCidrs(value('2001:db8::1'), value('2001:db8:0:1::'));
    expect(networks.length).toBeGreaterThan(10);
    const at = (ip: string) => ipInfoView(fullInfo({ ip, networks })).network;
    expect(at('2001:db8::1')).toBe('2001:db8::1/128');
    expect(at('2001:db8::8000:0:0:0')).toBe('2001:db8:0:0:8000::/65');
    expect(at('2001:db8:0:1::')).toBe('2001:db8:0:1::/128');
    expect(at('2001:db8:0:1::1')).toBeNull();

    const v128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    fc.assert(
      fc.property(v128, v128, fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (x, y, offset) => {
        const first = x < y ? x : y;
        const last = x < y ? y : x;
        const address = first + (offset % (last - first + 1n));
        const network = ipInfoView(fullInfo({ ip: text(address), networks: ipv6RangeToCidrs(first, last) })).network;
        expect(network).not.toBeNull();
        const [base, length] = (network as string).split('/') as [string, string];
        const start = value(base);
        expect(address >= start && address < start + (1n << BigInt(128 - Number(length)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('privacyView', () => {
  it('answers ip, is_proxy, proxy_data and reserved only', () => {
    expect(privacyView(fullInfo())).toEqual({
      ip: '8.8.8.8',
      is_proxy: true,
      proxy_data: { is_vpn: true, is_tor: false, is_data_center: true, is_proxy: false, is_relay: false, is_hosting: true },
      reserved: null,
    });
  });

  it('answers null flags for a reserved address and for one without a record', () => {
    expect(privacyView(fullInfo({ ip: '127.0.0.1', reserved: ReservedReason.RESERVED_REASON_LOOPBACK }))).toEqual({
      ip: '127.0.0.1',
      is_proxy: null,
      proxy_data: null,
      reserved: 'loopback',
    });
    expect(privacyView(IpInfo.fromPartial({ ip: '1.2.3.4' }))).toEqual({
      ip: '1.2.3.4',
      is_proxy: null,
      proxy_data: null,
      reserved: null,
    });
  });
});
