import { type AddressResolution, DnsResolver, asciiDomainName } from '@ipdata/common/dns';
import { ApiError, badRequest } from '../public-api/api-error.js';

/**
 * A and AAAA records for `GET /v1/domain/{name}`, over common's DnsResolver (its own c-ares
 * Resolver, so the servers and the timeout are ours and not the process-wide `dns` settings).
 * Configure public resolvers in production: the host's resolver may answer names of the internal
 * network, which the public API would then reveal. Only the messages are bff-en's.
 */
export interface DomainResolverOptions {
  /** DNS servers as `ip` or `ip:port` (`[ipv6]:port`); default: the host's resolv.conf. */
  readonly servers?: readonly string[];
  /** Per query, in milliseconds (default 2,000). */
  readonly timeoutMs?: number;
  /** Attempts per server (default 1: the caller waits for an HTTP answer, not a retry loop). */
  readonly tries?: number;
}

export interface DomainRecords {
  /** The name as queried: lower-case ASCII (IDN labels as punycode), no trailing dot. */
  readonly name: string;
  readonly a: string[];
  readonly aaaa: string[];
}

export class DomainResolver {
  private readonly dns: DnsResolver;

  constructor(options: DomainResolverOptions = {}) {
    this.dns = new DnsResolver(options);
  }

  /**
   * Both record types, queried at once. Errors (ApiError): 400 `invalid_domain` for a name that
   * is not a domain name, 404 `domain_not_found` when it has neither A nor AAAA records (NXDOMAIN
   * included), 504 `dns_timeout` when either query times out and 502 `dns_failed` when either
   * fails otherwise. A half answer is an error on purpose: the route promises both record types,
   * and leaving the AAAA records out without saying so would mislead.
   */
  async resolve(name: string): Promise<DomainRecords> {
    const ascii = domainName(name);
    const resolution: AddressResolution = await this.dns.resolveAddresses(ascii);
    if (resolution.status === 'timeout') {
      throw new ApiError(
        504,
        'dns_timeout',
        `the DNS servers did not answer in time for "${ascii}"`,
        "Try again later; if it persists, the domain's name servers are not answering.",
      );
    }
    if (resolution.status === 'failed') {
      throw new ApiError(
        502,
        'dns_failed',
        `the DNS lookup of "${ascii}" failed`,
        "Try again later; if it persists, the domain's DNS is misconfigured.",
      );
    }
    if (resolution.status === 'no_records') {
      throw new ApiError(
        404,
        'domain_not_found',
        `"${ascii}" has no A or AAAA records`,
        'Check the spelling of the domain name; only names with A or AAAA records in public DNS can be looked up.',
      );
    }
    return { name: resolution.name, a: resolution.a, aaaa: resolution.aaaa };
  }

  /** Ends the queries in flight (they fail with ECANCELLED). */
  shutdown(): void {
    this.dns.shutdown();
  }
}

/** The ASCII form of a domain name (common's rules, `asciiDomainName`), or ApiError 400 `invalid_domain`. */
export function domainName(input: string): string {
  const ascii = asciiDomainName(input);
  if (ascii !== undefined) return ascii;
  const shown = input.length > 64 ? `${input.slice(0, 64)}…` : input;
  throw badRequest(
    'invalid_domain',
    `invalid domain name: "${shown}"`,
    'Send a fully qualified domain name such as example.com (internationalised names are accepted); for an IP address use /v1/ip/{ip}.',
  );
}
