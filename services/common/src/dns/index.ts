/**
 * '@ipdata/common/dns': the project's domain-name rules and its DNS resolver (A/AAAA with failure
 * classes, PTR). A subpath of its own: it loads node:dns and node:url only, no driver or logger.
 */
export { InvalidDomainNameError, asciiDomainName } from './domain-name.js';
export { reverseName } from './reverse-name.js';
export {
  DnsResolver,
  type AddressResolution,
  type DnsResolverOptions,
  type DnsStatus,
  type ReverseResolution,
} from './dns-resolver.js';
