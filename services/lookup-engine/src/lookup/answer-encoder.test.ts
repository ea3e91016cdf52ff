import { LookupResponse, BatchLookupResponse, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { syntheticDataset } from '../../test/fixtures/synthetic-dataset.js';
import { LoadedDataset } from '../dataset/loaded-dataset.js';
import { AnswerEncoder } from './answer-encoder.js';
import { toIpInfo } from './ip-info.js';

const dataset = LoadedDataset.fromBytes(syntheticDataset('test-1'));
const encoder = new AnswerEncoder(dataset);
const now = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('answers', () => {
  it('resolves an address to its record, range and networks', () => {
    const info = toIpInfo(dataset, '1.0.0.77', dataset.resolve('1.0.0.77'), now);
    expect(info).toMatchObject({
      ip: '1.0.0.77',
      countryCode: 'AU',
      cityName: 'Sydney',
      asn: { asn: 13335, asnName: 'Cloudflare, Inc.', usageType: 'DCH' },
      isProxy: false,
      proxyData: { isDataCenter: true, isHosting: true, isVpn: false },
      startIp: '1.0.0.0',
      endIp: '1.0.0.255',
      networks: ['1.0.0.0/24'],
      timeZone: { name: 'Australia/Sydney', offset: '+11:00', currentTime: '2026-11-22T23:00:00+11:00' },
      isEu: false,
      reserved: ReservedReason.RESERVED_REASON_UNSPECIFIED,
    });
    expect(info.weatherStationCode).toBeUndefined();
  });

  it('answers IPv4-mapped IPv6 as IPv4 and IPv6 from its own table', () => {
    expect(dataset.resolve('::ffff:8.8.8.8')).toMatchObject({ family: 4, record: { city_name: 'Mountain View' } });
    const v6 = toIpInfo(dataset, '2001:4860:4860::8888', dataset.resolve('2001:4860:4860::8888'), now);
    expect(v6).toMatchObject({
      cityName: 'Berlin',
      isEu: true,
      startIp: '2001:4860::',
      endIp: '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff',
      networks: ['2001:4860::/32'],
    });
  });

  it('gives reserved addresses a reason instead of a location', () => {
    for (const [ip, reason] of [
      ['10.1.2.3', ReservedReason.RESERVED_REASON_PRIVATE],
      ['127.0.0.1', ReservedReason.RESERVED_REASON_LOOPBACK],
      ['169.254.1.1', ReservedReason.RESERVED_REASON_LINK_LOCAL],
      ['224.0.0.251', ReservedReason.RESERVED_REASON_MULTICAST],
      ['192.0.2.1', ReservedReason.RESERVED_REASON_DOCUMENTATION],
      ['::1', ReservedReason.RESERVED_REASON_LOOPBACK],
      ['fe80::1', ReservedReason.RESERVED_REASON_LINK_LOCAL],
      ['fd00::1', ReservedReason.RESERVED_REASON_PRIVATE],
      ['2001:db8::1', ReservedReason.RESERVED_REASON_DOCUMENTATION],
      ['ff02::1', ReservedReason.RESERVED_REASON_MULTICAST],
    ] as const) {
      const info = toIpInfo(dataset, ip, dataset.resolve(ip), now);
      expect(info.reserved, ip).toBe(reason);
      expect(info.countryCode, ip).toBeUndefined();
    }
  });

  it('gives the same record on the allocation-free path', () => {
    for (const ip of ['1.0.0.77', '8.8.8.8', '2001:4860::1', '::ffff:114.114.114.114', '10.0.0.1', '9.9.9.9']) {
      expect(dataset.lookup(ip), ip).toBe(dataset.resolve(ip).record);
    }
    expect(() => dataset.lookup('1.2.3.4.5')).toThrowError('invalid IP address: 1.2.3.4.5');
  });

  it('refuses malformed input with the spec message', () => {
    expect(() => dataset.resolve('1.2.3')).toThrowError('invalid IP address: 1.2.3');
    expect(() => dataset.resolve('not an ip')).toThrowError('invalid IP address: not an ip');
  });

  it('encodes the same message bytes as the generated codec would, for single and batch answers', () => {
    for (const ip of ['1.0.0.77', '8.8.8.8', '114.114.114.114', '2001:4860::1', '10.0.0.1', '9.9.9.9', '::ffff:1.0.0.1']) {
      const fast = LookupResponse.decode(encoder.encodeLookup(ip, now));
      expect(fast).toEqual(LookupResponse.fromPartial({ info: toIpInfo(dataset, ip, dataset.resolve(ip), now) }));
    }
    const batch = BatchLookupResponse.decode(encoder.encodeBatch(['8.8.8.8', 'bogus', '114.114.114.1'], now));
    expect(batch.items.map((item) => item.query)).toEqual(['8.8.8.8', 'bogus', '114.114.114.1']);
    expect(batch.items[0]?.info?.cityName).toBe('Mountain View');
    expect(batch.items[1]).toMatchObject({ error: 'invalid IP address: bogus', info: undefined });
    expect(batch.items[2]?.info?.zh).toEqual({ country: '中国', province: '江苏', city: '南京', isp: '电信' });
  });
});
