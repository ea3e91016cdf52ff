/**
 * '@ipdata/common/ip': the project's one IP address module (parsing, text forms, CIDR blocks,
 * client-address canonicalisation). A subpath of its own, not in the main index, so importing it
 * loads no driver or logger: the lookup engine's hot path and the dataset build use it.
 */
export { canonicalIp, rateLimitKey, type CanonicalIp } from './canonical-ip.js';
export {
  bigIntToWords,
  forEachIpv4Cidr,
  forEachIpv6Cidr,
  ipv4PrefixContaining,
  ipv4RangeToCidrs,
  ipv6RangeToCidrs,
  wordsToBigInt,
} from './cidr.js';
export { makeStringPrototypeFast } from './fast-string-prototype.js';
export { formatIpv4, formatIpv6, writeIpv4Ascii } from './format-ip.js';
export { mappedIpv4, parseIpv4, parseIpv6 } from './parse-ip.js';
