import { IPv4 } from 'ip-num';
import { MSG, fail, ok, parseIpv4, prefixOfMask, type ToolResult } from './ip-input.js';

export interface InverseMask {
  /** the mask given or computed, e.g. 255.255.255.0 */
  netmask: string;
  /** its inverse (Cisco ACL / OSPF wildcard), e.g. 0.0.0.255 */
  wildcard: string;
  prefix: number;
}

/** /netmaskinverse: a subnet mask to its inverse (wildcard) mask. IPv4 only: wildcards are IPv4 ACL notation. */
export function netmaskToWildcard(input: string): ToolResult<InverseMask> {
  const parsed = parseIpv4(input);
  if (!parsed.ok) return parsed;
  const prefix = prefixOfMask(parsed.value.getValue(), 32);
  if (prefix === null) return fail(MSG.badMask);
  return ok({ netmask: parsed.value.toString(), wildcard: invert(parsed.value).toString(), prefix });
}

/** /netmaskinverse: a wildcard mask back to its subnet mask. */
export function wildcardToNetmask(input: string): ToolResult<InverseMask> {
  const parsed = parseIpv4(input);
  if (!parsed.ok) return parsed;
  const netmask = invert(parsed.value);
  const prefix = prefixOfMask(netmask.getValue(), 32);
  if (prefix === null) return fail(MSG.badWildcard);
  return ok({ netmask: netmask.toString(), wildcard: parsed.value.toString(), prefix });
}

function invert(ip: IPv4): IPv4 {
  return IPv4.fromNumber(ip.getValue() ^ 0xffffffffn);
}
