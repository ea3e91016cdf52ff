import { IPv4 } from 'ip-num';
import { MSG, fail, ok, parseIpv4, type ToolResult } from './ip-input.js';

/** /ipv4andlong: an IPv4 address as its 32-bit unsigned integer ("long"). */
export function ipv4ToLong(input: string): ToolResult<string> {
  const parsed = parseIpv4(input);
  return parsed.ok ? ok(parsed.value.getValue().toString()) : parsed;
}

/** /ipv4andlong: the other way, 0 to 4294967295 to dotted decimal. */
export function longToIpv4(input: string): ToolResult<string> {
  const text = input.trim();
  if (!/^\d{1,10}$/.test(text) || BigInt(text) > 4294967295n) return fail(MSG.badLong);
  return ok(IPv4.fromNumber(BigInt(text)).toString());
}
