import { InvalidArgumentError, UnavailableError } from '@ipdata/common';
import { DnsResolver, asciiDomainName } from '@ipdata/common/dns';
import type { TargetResolver } from './traceroute.ports.js';

/** The ASCII form of a domain name (common's rules, `asciiDomainName`), or InvalidArgumentError "请输入正确的域名" (code 400). */
export function domainName(input: string): string {
  const ascii = asciiDomainName(input);
  if (ascii === undefined) throw new InvalidArgumentError('请输入正确的域名');
  return ascii;
}

/**
 * A and AAAA records through common's DnsResolver (servers from DNS_SERVERS, else the host's
 * resolv.conf; configure public resolvers in production so internal names are not probed). Any
 * address is enough for a probe target, so half an answer is used.
 */
export class DnsTargetResolver implements TargetResolver {
  private readonly dns: DnsResolver;

  constructor(options: { servers?: readonly string[]; timeoutMs?: number } = {}) {
    this.dns = new DnsResolver({ ...options, tries: 1 });
  }

  async resolve(domain: string): Promise<string[]> {
    const resolution = await this.dns.resolveAddresses(domainName(domain));
    const addresses = [...resolution.a, ...resolution.aaaa];
    if (addresses.length > 0) return addresses;
    if (resolution.status === 'no_records') throw new InvalidArgumentError('域名没有解析到 IP 地址');
    throw new UnavailableError('域名解析失败，请稍后再试', { expose: true });
  }

  shutdown(): void {
    this.dns.shutdown();
  }
}
