import { IPv4, IPv6, IPv4Prefix, IPv6Prefix, Validator, collapseIPv6Number, expandIPv6Number } from 'ip-num';

/** A tool's answer: the value, or a validation message in Chinese for the visitor. */
export type ToolResult<T> = { ok: true; value: T } | { ok: false; error: string };

export const MSG = {
  emptyIp: '请输入 IP 地址',
  badIp: '请输入正确的 IP 地址（IPv4 或 IPv6）',
  badIpv4: '请输入正确的 IPv4 地址（如 192.168.1.1）',
  badIpv6: '请输入正确的 IPv6 地址（如 2001:db8::1）',
  badLong: '请输入 0 到 4294967295 之间的整数',
  badPrefix4: 'IPv4 前缀长度须为 0 到 32 之间的整数',
  badPrefix6: 'IPv6 前缀长度须为 0 到 128 之间的整数',
  badMask: '子网掩码无效：须为连续的 1 后接连续的 0（如 255.255.255.0）',
  badWildcard: '反掩码无效：须为连续的 0 后接连续的 1（如 0.0.0.255）',
  emptyMask: '请输入子网掩码或前缀长度',
  badCidr: '请输入 CIDR 格式的网段（如 192.168.1.0/24 或 2001:db8::/32）',
} as const;

export const ok = <T>(value: T): ToolResult<T> => ({ ok: true, value });
export const fail = <T>(error: string): ToolResult<T> => ({ ok: false, error });

export type ParsedIp = { family: 4; ip: IPv4 } | { family: 6; ip: IPv6 };

export function isIpv4(text: string): boolean {
  return Validator.isValidIPv4String(text)[0];
}

export function isIpv6(text: string): boolean {
  // A zone index (fe80::1%eth0) names an interface of this machine: meaningless in a calculator.
  return !text.includes('%') && text.includes(':') && Validator.isValidIPv6String(text)[0];
}

export function parseIp(input: string): ToolResult<ParsedIp> {
  const text = input.trim();
  if (!text) return fail(MSG.emptyIp);
  if (isIpv4(text)) return ok({ family: 4, ip: IPv4.fromDecimalDottedString(text) });
  if (isIpv6(text)) return ok({ family: 6, ip: IPv6.fromString(text) });
  return fail(MSG.badIp);
}

export function parseIpv4(input: string): ToolResult<IPv4> {
  const text = input.trim();
  if (!text) return fail(MSG.emptyIp);
  return isIpv4(text) ? ok(IPv4.fromDecimalDottedString(text)) : fail(MSG.badIpv4);
}

/** A prefix length written as `24` or `/24`. */
export function parsePrefix(input: string, family: 4 | 6): ToolResult<number> {
  const text = input.trim().replace(/^\//, '');
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(text) || Number(text) > max) return fail(family === 4 ? MSG.badPrefix4 : MSG.badPrefix6);
  return ok(Number(text));
}

export function ipv4PrefixMask(prefix: number): IPv4 {
  return IPv4Prefix.fromNumber(BigInt(prefix)).toMask();
}

export function ipv6PrefixMask(prefix: number): IPv6 {
  return IPv6Prefix.fromNumber(BigInt(prefix)).toMask();
}

/** The prefix length of a contiguous mask value of `bits` bits, or null when not contiguous. */
export function prefixOfMask(value: bigint, bits: number): number | null {
  const binary = value.toString(2).padStart(bits, '0');
  return /^1*0*$/.test(binary) ? (binary.indexOf('0') === -1 ? bits : binary.indexOf('0')) : null;
}

/** An IPv6 address in its shortest form (RFC 5952: lower case, longest zero run as ::). */
export function compressIpv6(ip: IPv6): string {
  return collapseIPv6Number(ip.toString());
}

export function expandIpv6(ip: IPv6): string {
  return expandIPv6Number(ip.toString());
}

export function dottedBinary(ip: IPv4): string {
  return ip.toBinaryString().padStart(32, '0').match(/.{8}/g)!.join('.');
}

export function hex(value: bigint, digits: number): string {
  return `0x${value.toString(16).toUpperCase().padStart(digits, '0')}`;
}
