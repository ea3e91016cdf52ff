import { formatIpv4, formatIpv6, mappedIpv4, parseIpv4, parseIpv6 } from '@ipdata/common/ip';
import { type ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { reservedIpv4, reservedIpv6 } from '../ip/reserved-ranges.js';

/** What a BFF knows about an input before asking the engine (and before counting it against a quota). */
export interface CheckedAddress {
  family: 4 | 6;
  /** Dotted quad, or RFC 5952 IPv6; `::ffff:a.b.c.d` is the IPv4 address it carries. */
  text: string;
  /** UNSPECIFIED for an ordinary address; else why the engine answers without a location. */
  reserved: ReservedReason;
}

const words = new Uint32Array(4);

/**
 * The engine's own parse and special-purpose check, on the caller's side: BFFs answer invalid and
 * reserved inputs (free under every quota rule) without a lookup or a quota reservation.
 * Undefined when the text is not exactly one address (same rules as the engine).
 */
export function checkAddress(text: string): CheckedAddress | undefined {
  if (text.indexOf(':') < 0) {
    const v4 = parseIpv4(text);
    // parseIpv4 takes one spelling per address (no leading zeros), so the input is its canonical
    // text: formatted again, it was ~200 bytes of garbage per input (a batch's largest allocation).
    return v4 < 0 ? undefined : { family: 4, text, reserved: reservedIpv4(v4) };
  }
  if (!parseIpv6(text, words)) return undefined;
  const mapped = mappedIpv4(words);
  if (mapped >= 0) return { family: 4, text: formatIpv4(mapped), reserved: reservedIpv4(mapped) };
  return { family: 6, text: formatIpv6(words), reserved: reservedIpv6(words) };
}
