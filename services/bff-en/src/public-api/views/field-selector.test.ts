import { IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.js';
import { ASN_FIELDS } from './asn.view.js';
import { leafPaths } from './field-set.js';
import { compileFields, fieldValueText } from './field-selector.js';
import { IP_INFO_FIELDS, ipInfoView } from './ip-info.view.js';

const view = ipInfoView(
  IpInfo.fromPartial({
    ip: '8.8.8.8',
    countryCode: 'US',
    cityName: 'Mountain View',
    latitude: 37.4056,
    isEu: false,
    asn: { asn: 15169, asnName: 'GOOGLE', domain: 'google.com' },
    timeZone: { name: 'America/Los_Angeles', offset: '-07:00', currentTime: '2026-05-01T10:00:00-07:00' },
    isProxy: false,
    proxyData: { isVpn: true },
    startIp: '8.8.8.0',
    endIp: '8.8.8.255',
    networks: ['8.8.8.0/24'],
  }),
);

function apiErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('compileFields', () => {
  it('keeps everything without a parameter (the view itself, all leaf columns)', () => {
    for (const param of [null, undefined, '', ' , ']) {
      const selector = compileFields(param);
      expect(selector.all).toBe(true);
      expect(selector.apply(view)).toBe(view);
      expect(selector.columns).toEqual(leafPaths(IP_INFO_FIELDS));
    }
    expect(compileFields(null).columns).toContain('proxy_data.is_hosting');
  });

  it('keeps only the selected dot-paths, nested objects with only the selected children, in view order', () => {
    const selector = compileFields('asn.asn,country_code,proxy_data.is_vpn,asn.domain');
    const projected = selector.apply(view);
    expect(projected).toEqual({ country_code: 'US', asn: { asn: 15169, domain: 'google.com' }, proxy_data: { is_vpn: true } });
    expect(Object.keys(projected)).toEqual(['country_code', 'asn', 'proxy_data']);
    expect(Object.keys(projected.asn as object)).toEqual(['asn', 'domain']);
    expect(selector.columns).toEqual(['country_code', 'asn.asn', 'asn.domain', 'proxy_data.is_vpn']);
    // The view is not changed.
    expect(view.asn?.asn_name).toBe('GOOGLE');
  });

  it('keeps a whole object when it is selected, also beside one of its children', () => {
    expect(compileFields('time_zone').apply(view)).toEqual({ time_zone: view.time_zone });
    expect(compileFields('asn.asn,asn').apply(view)).toEqual({ asn: view.asn });
    expect(compileFields('asn,asn.asn').apply(view)).toEqual({ asn: view.asn });
    expect(compileFields('asn').columns).toEqual([
      'asn.asn',
      'asn.asn_name',
      'asn.domain',
      'asn.usage_type',
      'asn.isp',
      'asn.organization',
    ]);
  });

  it('answers null for a selected child of a null object and for selected null fields', () => {
    expect(compileFields('currency.code,zip_code').apply(view)).toEqual({ zip_code: null, currency: null });
  });

  it('drops -excluded fields, including nested ones, and keeps the rest in order', () => {
    const selector = compileFields('-time_zone, -asn.domain,-asn.isp,-reserved');
    const projected = selector.apply(view);
    expect(projected).not.toHaveProperty('time_zone');
    expect(projected).not.toHaveProperty('reserved');
    expect(projected.asn).toEqual({ asn: 15169, asn_name: 'GOOGLE', usage_type: null, organization: null });
    expect(Object.keys(projected)).toEqual(
      IP_INFO_FIELDS.map((field) => field.name).filter((name) => name !== 'time_zone' && name !== 'reserved'),
    );
    expect(selector.columns).not.toContain('asn.domain');
    expect(selector.columns).not.toContain('time_zone.name');
    expect(selector.columns).toContain('asn.asn_name');
    // Excluding every child drops the object; excluding the whole wins over a child.
    expect(compileFields('-time_zone.name,-time_zone.offset,-time_zone.current_time').apply(view)).not.toHaveProperty(
      'time_zone',
    );
    expect(compileFields('-asn.domain,-asn').apply(view)).not.toHaveProperty('asn');
  });

  it('refuses unknown paths with 400 invalid_field naming the path and how to find valid names', () => {
    for (const [param, bad] of [
      ['country', 'country'],
      ['country_code,asn.number', 'asn.number'],
      ['ip.x', 'ip.x'],
      ['asn.asn.asn', 'asn.asn.asn'],
      ['asn.', 'asn.'],
      ['-', ''],
      ['-zh', 'zh'],
      ['Country_Code', 'Country_Code'],
    ] as const) {
      const error = apiErrorOf(() => compileFields(param));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_field');
      expect(error.message).toBe(`unknown field "${bad}"`);
      expect(error.resolution).toContain('/v1/openapi.json');
      expect(error.resolution).toContain('asn.asn_name');
    }
    // The input is echoed bounded.
    expect(apiErrorOf(() => compileFields('x'.repeat(500))).message.length).toBeLessThan(100);
    expect(apiErrorOf(() => compileFields('ip,'.repeat(1000))).code).toBe('invalid_field');
  });

  it('refuses a mix of selections and exclusions with 400', () => {
    for (const param of ['country_code,-asn', '-asn,country_code']) {
      const error = apiErrorOf(() => compileFields(param));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_field');
      expect(error.message).toContain('mixes');
    }
  });

  it('compiles once per distinct value and keeps the cache bounded', () => {
    expect(compileFields('country_code,asn.asn')).toBe(compileFields('country_code,asn.asn'));
    const first = compileFields('city_name');
    // 200 other distinct values push the oldest out of the 128 entries.
    for (let i = 0; i < 200; i++) compileFields(i % 2 === 0 ? `ip,${' '.repeat(i)}city_name` : `-ip${' '.repeat(i)}`);
    const again = compileFields('city_name');
    expect(again).not.toBe(first);
    expect(again.apply(view)).toEqual({ city_name: 'Mountain View' });
    // A value in use stays cached while others come and go.
    const hot = compileFields('latitude');
    for (let i = 0; i < 200; i++) {
      compileFields(`ip,${' '.repeat(i)}latitude`);
      expect(compileFields('latitude')).toBe(hot);
    }
  });

  it('checks paths against the field set it is given', () => {
    expect(compileFields('asn,prefixes', ASN_FIELDS).columns).toEqual(['asn', 'prefixes']);
    expect(apiErrorOf(() => compileFields('asn.asn', ASN_FIELDS)).message).toBe('unknown field "asn.asn"');
    expect(apiErrorOf(() => compileFields('prefixes'))).toBeInstanceOf(ApiError);
  });
});

describe('fieldValueText', () => {
  it('answers strings as they are, numbers and booleans as in JSON, objects as JSON, null as empty', () => {
    expect(fieldValueText(view, 'country_code')).toBe('US');
    expect(fieldValueText(view, 'latitude')).toBe('37.4056');
    expect(fieldValueText(view, 'is_eu')).toBe('false');
    expect(fieldValueText(view, 'asn.asn')).toBe('15169');
    expect(fieldValueText(view, 'proxy_data.is_vpn')).toBe('true');
    expect(JSON.parse(fieldValueText(view, 'time_zone'))).toEqual(view.time_zone);
    expect(fieldValueText(view, 'zip_code')).toBe('');
    expect(fieldValueText(view, 'currency.code')).toBe('');
    expect(fieldValueText(view, 'reserved')).toBe('');
  });

  it('refuses an unknown field with 400 invalid_field', () => {
    const error = apiErrorOf(() => fieldValueText(view, 'postal'));
    expect([error.status, error.code, error.message]).toEqual([400, 'invalid_field', 'unknown field "postal"']);
    expect(apiErrorOf(() => fieldValueText(view, 'asn.x')).code).toBe('invalid_field');
  });
});
