import type { PrivacyFlagReason } from '@ipdata/proto/lookup/v1/lookup';
import type { IpRecord } from '../dataset/ip-record.js';

/**
 * Which rule ids of the dataset build (services/dataset/src/sources/privacy-rules.ts) can set
 * each proxy_data flag: the hosting rule sets both hosting flags, a range list sets the flag of
 * its kind and is named "<kind>:<file>".
 */
const FLAG_RULES: ReadonlyArray<{ flag: keyof IpRecord['proxy_data']; matches: (rule: string) => boolean }> = [
  { flag: 'is_vpn', matches: (rule) => rule.startsWith('vpn:') },
  { flag: 'is_tor', matches: (rule) => rule.startsWith('tor:') },
  { flag: 'is_data_center', matches: (rule) => rule === 'hosting-asn' },
  { flag: 'is_proxy', matches: (rule) => rule.startsWith('proxy:') },
  { flag: 'is_relay', matches: (rule) => rule.startsWith('relay:') },
  { flag: 'is_hosting', matches: (rule) => rule === 'hosting-asn' },
];

/**
 * One reason per set flag, from the record's `privacy_rule` (comma-separated rule ids). Several
 * lists of one kind covering the address are named together ("tor:a.csv,tor:b.csv"); a set
 * flag with no recorded rule (a dataset built before rules were recorded) gets an empty rule.
 */
export function privacyReasons(record: IpRecord | null): PrivacyFlagReason[] {
  if (record === null) return [];
  const rules = (record.privacy_rule ?? '')
    .split(',')
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '');
  return FLAG_RULES.filter(({ flag }) => record.proxy_data[flag]).map(({ flag, matches }) => ({
    flag,
    rule: rules.filter(matches).join(','),
  }));
}
