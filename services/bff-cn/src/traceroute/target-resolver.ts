import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { CODE, FaceAError, badInput } from '../face-a/envelope.js';
import type { TargetResolver } from './traceroute.ports.js';

const MAX_NAME_LENGTH = 253;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const NUMERIC = /^[0-9]+$/;
/**
 * ASCII other than letters, digits, '.', '-' and '_', refused before domainToASCII (which parses
 * a URL host: it would cut `example.com/path` at the slash and decode `%2e`). The same rules as
 * bff-en's domain lookup (services/bff-en/src/domain-lookup), with face A's messages.
 */
// eslint-disable-next-line no-control-regex -- control characters are among the refused ones
const FORBIDDEN_ASCII = /[\u0000-\u002c\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u007f]/;
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/** The ASCII form of a domain name, or code 400. Two labels at least; a numeric TLD (an address) is refused. */
export function domainName(input: string): string {
  const trimmed = input.length > 1024 || FORBIDDEN_ASCII.test(input) ? '' : input.endsWith('.') ? input.slice(0, -1) : input;
  const ascii = trimmed === '' ? '' : domainToASCII(trimmed);
  const labels = ascii.split('.');
  const valid =
    ascii !== '' &&
    ascii.length <= MAX_NAME_LENGTH &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !NUMERIC.test(labels.at(-1) as string);
  if (!valid) throw badInput('请输入正确的域名');
  return ascii;
}

/**
 * A and AAAA records through its own c-ares Resolver (servers from DNS_SERVERS, else the host's
 * resolv.conf; configure public resolvers in production so internal names are not probed).
 */
export class DnsTargetResolver implements TargetResolver {
  private readonly resolver: Resolver;

  constructor(options: { servers?: readonly string[]; timeoutMs?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 1 });
    if (options.servers !== undefined && options.servers.length > 0) this.resolver.setServers([...options.servers]);
  }

  async resolve(domain: string): Promise<string[]> {
    const ascii = domainName(domain);
    const [a, aaaa] = await Promise.allSettled([this.resolver.resolve4(ascii), this.resolver.resolve6(ascii)]);
    const codes = [a, aaaa].flatMap((outcome) => (outcome.status === 'rejected' ? [errorCode(outcome.reason)] : []));
    const addresses = [a, aaaa].flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
    if (addresses.length > 0) return addresses;
    if (codes.every((code) => NO_RECORDS.has(code))) throw badInput('域名没有解析到 IP 地址');
    throw new FaceAError(CODE.unavailable, '域名解析失败，请稍后再试');
  }

  shutdown(): void {
    this.resolver.cancel();
  }
}

function errorCode(reason: unknown): string {
  return typeof reason === 'object' && reason !== null && 'code' in reason ? String(reason.code) : 'UNKNOWN';
}
