import { rateLimitKey } from '@ipdata/common/ip';
import { MESSAGES } from './messages.js';
import { invalid } from './validation.js';

/**
 * The key per-IP limits count under: the canonical address (IPv4, also when written as
 * IPv4-mapped IPv6) or the IPv6 /64 (one subscriber's usual allocation). Empty or malformed
 * values are refused rather than counted under a shared "unknown" key, which one caller could
 * otherwise fill for everybody or side-step with spelling variants (" 10.9.9.9", "010.9.9.9").
 */
export function clientIpKey(clientIp: string): string {
  const key = rateLimitKey(clientIp);
  if (key === undefined) throw invalid('client_ip', MESSAGES.invalidClientIp, 'invalid_client_ip');
  return key;
}
