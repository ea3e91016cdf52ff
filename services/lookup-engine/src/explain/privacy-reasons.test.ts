import { describe, expect, it } from 'vitest';
import type { IpRecord } from '../dataset/ip-record.js';
import { privacyReasons } from './privacy-reasons.js';

const flags = { is_vpn: false, is_tor: false, is_data_center: false, is_proxy: false, is_relay: false, is_hosting: false };
const record = (proxy: Partial<typeof flags>, rule: string | null) =>
  ({ proxy_data: { ...flags, ...proxy }, privacy_rule: rule }) as IpRecord;

describe('privacyReasons', () => {
  it('gives one reason per set flag with the rules of its kind', () => {
    expect(
      privacyReasons(
        record({ is_tor: true, is_data_center: true, is_hosting: true }, 'hosting-asn,tor:tor-exits.csv,tor:tor-more.csv'),
      ),
    ).toEqual([
      { flag: 'is_tor', rule: 'tor:tor-exits.csv,tor:tor-more.csv' },
      { flag: 'is_data_center', rule: 'hosting-asn' },
      { flag: 'is_hosting', rule: 'hosting-asn' },
    ]);
  });

  it('is empty without a record or without set flags; a flag without a recorded rule gets an empty rule', () => {
    expect(privacyReasons(null)).toEqual([]);
    expect(privacyReasons(record({}, null))).toEqual([]);
    expect(privacyReasons(record({ is_vpn: true }, null))).toEqual([{ flag: 'is_vpn', rule: '' }]);
  });
});
