import { formatIpv4, formatIpv6 } from './format-ip.js';
import { mappedIpv4, parseIpv4, parseIpv6 } from './parse-ip.js';

/** An address in the one text form the project compares and stores. */
export interface CanonicalIp {
  readonly family: 4 | 6;
  /** Dotted-quad IPv4 or RFC 5952 IPv6 (lower case, longest zero run compressed). */
  readonly text: string;
}

// Reused: everything here is synchronous, so no caller sees another's words.
const words = new Uint32Array(4);
const INVALID = -1;
/** parseClientIp's answer when the address is IPv6: its value is in `words`. */
const IN_WORDS = -2;

/**
 * Strict on purpose, because callers key limits and records on the result: nothing is trimmed
 * (" 10.9.9.9" is invalid), IPv4 octets with leading zeros ("010.9.9.9", octal to some parsers)
 * are refused as the lookup engine refuses them, zone ids ("fe80::1%eth0") are refused, and an
 * IPv4-mapped IPv6 address ("::ffff:10.9.9.9") is the IPv4 address it carries.
 * Returns the IPv4 value, IN_WORDS for IPv6 (in `words`) or INVALID.
 */
function parseClientIp(text: string): number {
  if (typeof text !== 'string') return INVALID;
  if (text.indexOf(':') < 0) return parseIpv4(text);
  if (!parseIpv6(text, words)) return INVALID;
  const mapped = mappedIpv4(words);
  return mapped < 0 ? IN_WORDS : mapped;
}

/**
 * The canonical form of an address a client sent, or undefined when the text is not exactly one
 * address (see parseClientIp for what is refused).
 */
export function canonicalIp(text: string): CanonicalIp | undefined {
  const v4 = parseClientIp(text);
  if (v4 === INVALID) return undefined;
  return v4 === IN_WORDS ? { family: 6, text: formatIpv6(words) } : { family: 4, text: formatIpv4(v4) };
}

/**
 * The key a per-client-IP limit counts under, or undefined for empty or invalid input (the
 * caller refuses those rather than counting them under some shared key). IPv4: the canonical
 * address. IPv6: its /64 prefix ("2001:db8:1:2::/64"), since one subscriber usually holds a
 * whole /64 and can pick any address in it (RFC 6177): a per-address key would not limit them.
 */
export function rateLimitKey(text: string): string | undefined {
  const v4 = parseClientIp(text);
  if (v4 === INVALID) return undefined;
  if (v4 !== IN_WORDS) return formatIpv4(v4);
  words[2] = 0;
  words[3] = 0;
  return `${formatIpv6(words)}/64`;
}
