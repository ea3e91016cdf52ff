import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IpInfoView, ipInfoView } from './ip-info.view.js';
import { ipInfoJson, jsonBody } from './json-output.js';

const info = IpInfo.fromPartial({
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
  asn: { asn: 15169, asnName: 'GOOGLE', domain: 'google.com', usageType: 'DCH', isp: 'Google LLC', organization: 'Google LLC' },
  timeZone: { name: 'America/Los_Angeles', offset: '-07:00', currentTime: '2026-05-01T10:00:00-07:00' },
  currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
  isProxy: false,
  proxyData: { isVpn: false, isTor: false, isDataCenter: true, isProxy: false, isRelay: false, isHosting: true },
  startIp: '8.8.8.0',
  endIp: '8.8.8.255',
  networks: ['8.8.8.0/24'],
});

// Any text JSON treats specially: quotes, backslashes, control characters, lone and paired
// surrogates, U+2028/2029, non-ASCII.
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00', '🇺🇸', 'é', 'a'),
  }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7));

const viewArb: fc.Arbitrary<IpInfoView> = fc.record({
  ip: text,
  country_code: maybe(text),
  country_name: maybe(text),
  country_capital: maybe(text),
  region_name: maybe(text),
  city_name: maybe(text),
  latitude: maybe(number),
  longitude: maybe(number),
  zip_code: maybe(text),
  is_eu: maybe(fc.boolean()),
  calling_code: maybe(text),
  country_flag: maybe(text),
  weather_station_code: maybe(text),
  weather_station_name: maybe(text),
  elevation: maybe(number),
  asn: maybe(
    fc.record({
      asn: fc.nat(),
      asn_name: maybe(text),
      domain: maybe(text),
      usage_type: maybe(text),
      isp: maybe(text),
      organization: maybe(text),
    }),
  ),
  time_zone: maybe(fc.record({ name: text, offset: text, current_time: text })),
  currency: maybe(fc.record({ code: text, name: maybe(text), symbol: maybe(text) })),
  is_proxy: maybe(fc.boolean()),
  proxy_data: maybe(
    fc.record({
      is_vpn: fc.boolean(),
      is_tor: fc.boolean(),
      is_data_center: fc.boolean(),
      is_proxy: fc.boolean(),
      is_relay: fc.boolean(),
      is_hosting: fc.boolean(),
    }),
  ),
  start_ip: maybe(text),
  end_ip: maybe(text),
  network: maybe(text),
  reserved: maybe(fc.constantFrom('private' as const, 'loopback' as const, 'other' as const)),
});

describe('ipInfoJson', () => {
  it('writes exactly what JSON.stringify writes for engine answers', () => {
    const views = [
      ipInfoView(info),
      ipInfoView(IpInfo.fromPartial({ ip: '1.2.3.4' })),
      ipInfoView(
        IpInfo.fromPartial({
          ip: '::1',
          reserved: ReservedReason.RESERVED_REASON_LOOPBACK,
          startIp: '::1',
          endIp: '::1',
          networks: ['::1/128'],
        }),
      ),
    ];
    for (const view of views) expect(ipInfoJson(view)).toBe(JSON.stringify(view));
  });

  it('given the answer, writes its shared parts once and still exactly what JSON.stringify writes', () => {
    // Answers of one engine response share their asn, time zone, currency and proxy objects.
    const shared = IpInfo.fromPartial(info);
    const answers = ['8.8.4.4', '8.8.8.8', '8.8.8.9'].map((ip) => ({
      ...shared,
      ip,
      asn: shared.asn,
      timeZone: shared.timeZone,
      currency: shared.currency,
      proxyData: shared.proxyData,
    }));
    for (const answer of answers) {
      const view = ipInfoView(answer);
      expect(ipInfoJson(view, answer)).toBe(JSON.stringify(view));
    }
    // Written once per shared object: a view that differs there still gets the object's JSON.
    const asnOnce = ipInfoJson(
      { ...ipInfoView(answers[0]!), asn: { ...ipInfoView(answers[0]!).asn!, isp: 'other' } },
      answers[0],
    );
    expect(asnOnce).toBe(JSON.stringify(ipInfoView(answers[0]!)));
    // Without the answer nothing is reused.
    const fresh = { ...ipInfoView(answers[0]!), asn: { ...ipInfoView(answers[0]!).asn!, isp: 'other' } };
    expect(ipInfoJson(fresh)).toBe(JSON.stringify(fresh));
  });

  it('writes exactly what JSON.stringify writes for any view (property)', () => {
    fc.assert(
      fc.property(viewArb, (view) => {
        const json = ipInfoJson(view);
        expect(json).toBe(JSON.stringify(view));
      }),
      { numRuns: 2000 },
    );
  });

  it('is faster than JSON.stringify on a typical answer (printed; asserted loosely)', () => {
    const view = ipInfoView(info);
    const time = (run: () => string) => {
      let length = 0;
      const start = process.hrtime.bigint();
      for (let i = 0; i < 20_000; i++) length += run().length;
      expect(length).toBeGreaterThan(0);
      return Number(process.hrtime.bigint() - start) / 20_000;
    };
    const rounds = [0, 1, 2].map(() => ({
      stringify: time(() => JSON.stringify(view)),
      compiled: time(() => ipInfoJson(view)),
      shared: time(() => ipInfoJson(view, info)),
      view: time(() => ipInfoView(info).ip),
    }));
    const median = (key: 'stringify' | 'compiled' | 'shared' | 'view') =>
      rounds.map((round) => round[key]).sort((x, y) => x - y)[1] as number;
    console.warn(
      `json-output bench (ns per call, median of 3 × 20k): ipInfoView ${median('view').toFixed(0)}, JSON.stringify ${median('stringify').toFixed(0)}, ipInfoJson ${median('compiled').toFixed(0)}, with shared parts ${median('shared').toFixed(0)}`,
    );
    // Loose: a loaded CI machine must not fail this; a regression to slower than stringify does.
    expect(median('compiled')).toBeLessThan(median('stringify') * 1.2);
  });
});

describe('jsonBody', () => {
  it('is compact by default and indents by two spaces with pretty', () => {
    expect(jsonBody({ a: [1], b: null })).toBe('{"a":[1],"b":null}');
    expect(jsonBody({ a: [1], b: null }, true)).toBe('{\n  "a": [\n    1\n  ],\n  "b": null\n}');
  });
});
