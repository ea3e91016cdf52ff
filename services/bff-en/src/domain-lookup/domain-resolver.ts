import { DeadlineExceededError, InvalidArgumentError, NotFoundError, UnavailableError } from '@ipdata/common';
import { type AddressResolution, DnsResolver, asciiDomainName } from '@ipdata/common/dns';

/** The reasons of the resolver's DomainErrors (the public API words them: public-api/api-error.ts). */
export const DOMAIN_ERRORS = {
  invalidDomain: 'invalid_domain',
  notFound: 'domain_not_found',
  timeout: 'dns_timeout',
  failed: 'dns_failed',
} as const;

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
   * Both record types, queried at once. Errors (common DomainErrors, reasons DOMAIN_ERRORS):
   * InvalidArgumentError `invalid_domain` for a name that is not a domain name, NotFoundError
   * `domain_not_found` when it has neither A nor AAAA records (NXDOMAIN included),
   * DeadlineExceededError `dns_timeout` when either query times out and UnavailableError
   * `dns_failed` when either fails otherwise (both with messages for the caller: `expose`). A half
   * answer is an error on purpose: the route promises both record types, and leaving the AAAA
   * records out without saying so would mislead.
   */
  async resolve(name: string): Promise<DomainRecords> {
    const ascii = domainName(name);
    const resolution: AddressResolution = await this.dns.resolveAddresses(ascii);
    if (resolution.status === 'timeout') {
      throw new DeadlineExceededError(`the DNS servers did not answer in time for "${ascii}"`, {
        reason: DOMAIN_ERRORS.timeout,
        expose: true,
      });
    }
    if (resolution.status === 'failed') {
      throw new UnavailableError(`the DNS lookup of "${ascii}" failed`, { reason: DOMAIN_ERRORS.failed, expose: true });
    }
    if (resolution.status === 'no_records') {
      throw new NotFoundError(`"${ascii}" has no A or AAAA records`, { reason: DOMAIN_ERRORS.notFound });
    }
    return { name: resolution.name, a: resolution.a, aaaa: resolution.aaaa };
  }

  /** Ends the queries in flight (they fail with ECANCELLED). */
  shutdown(): void {
    this.dns.shutdown();
  }
}

/** The ASCII form of a domain name (common's rules, `asciiDomainName`), or InvalidArgumentError `invalid_domain`. */
export function domainName(input: string): string {
  const ascii = asciiDomainName(input);
  if (ascii !== undefined) return ascii;
  const shown = input.length > 64 ? `${input.slice(0, 64)}…` : input;
  throw new InvalidArgumentError(`invalid domain name: "${shown}"`, { reason: DOMAIN_ERRORS.invalidDomain });
}
