import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { ApiError, badRequest } from '../public-api/api-error.js';

/**
 * A and AAAA records for `GET /v1/domain/{name}`. Its own c-ares Resolver, so the servers and the
 * timeout are ours and not the process-wide `dns` settings. Configure public resolvers in
 * production: the host's resolver may answer names of the internal network, which the public API
 * would then reveal.
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

const MAX_NAME_LENGTH = 253;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const NUMERIC = /^[0-9]+$/;
/**
 * ASCII other than letters, digits, '.', '-' and '_'. Checked before domainToASCII, which parses a
 * URL host: it cuts `example.com/path` at the slash, drops tabs and decodes `%2e`, so such input
 * would otherwise be answered for some other name.
 */
// eslint-disable-next-line no-control-regex -- control characters are among the refused ones
const FORBIDDEN_ASCII = /[\u0000-\u002c\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u007f]/;
/** c-ares codes for "the name has no such records": not an error of the lookup. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

export class DomainResolver {
  private readonly resolver: Resolver;

  constructor(options: DomainResolverOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 1 });
    if (options.servers !== undefined && options.servers.length > 0) this.resolver.setServers([...options.servers]);
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
    const [a, aaaa] = await Promise.allSettled([this.resolver.resolve4(ascii), this.resolver.resolve6(ascii)]);
    const failures = [a, aaaa]
      .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      .map((outcome) => errorCode(outcome.reason));
    if (failures.includes('ETIMEOUT')) {
      throw new ApiError(
        504,
        'dns_timeout',
        `the DNS servers did not answer in time for "${ascii}"`,
        "Try again later; if it persists, the domain's name servers are not answering.",
      );
    }
    if (failures.some((code) => !NO_RECORDS.has(code))) {
      throw new ApiError(
        502,
        'dns_failed',
        `the DNS lookup of "${ascii}" failed`,
        "Try again later; if it persists, the domain's DNS is misconfigured.",
      );
    }
    const records = { name: ascii, a: unique(a), aaaa: unique(aaaa) };
    if (records.a.length === 0 && records.aaaa.length === 0) {
      throw new ApiError(
        404,
        'domain_not_found',
        `"${ascii}" has no A or AAAA records`,
        'Check the spelling of the domain name; only names with A or AAAA records in public DNS can be looked up.',
      );
    }
    return records;
  }

  /** Ends the queries in flight (they fail with ECANCELLED). */
  shutdown(): void {
    this.resolver.cancel();
  }
}

/**
 * The ASCII form of a domain name, or ApiError 400 `invalid_domain`. Internationalised names are
 * converted with the WHATWG URL rules (domainToASCII, as a browser would); then the DNS rules:
 * at most 253 characters, labels of 1 to 63 letters, digits, hyphens (not at either end) or
 * underscores, at least two labels, and a top-level label that is not all digits, which is what
 * refuses IP addresses (domainToASCII turns `0x7f.1` into `127.0.0.1`).
 */
export function domainName(input: string): string {
  // Bounded before any work; a longer name cannot become valid.
  const trimmed = input.length > 1024 || FORBIDDEN_ASCII.test(input) ? '' : input.endsWith('.') ? input.slice(0, -1) : input;
  const ascii = trimmed === '' ? '' : domainToASCII(trimmed);
  const labels = ascii.split('.');
  const valid =
    ascii !== '' &&
    ascii.length <= MAX_NAME_LENGTH &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !NUMERIC.test(labels[labels.length - 1] as string);
  if (valid) return ascii;
  const shown = input.length > 64 ? `${input.slice(0, 64)}…` : input;
  throw badRequest(
    'invalid_domain',
    `invalid domain name: "${shown}"`,
    'Send a fully qualified domain name such as example.com (internationalised names are accepted); for an IP address use /v1/ip/{ip}.',
  );
}

function errorCode(reason: unknown): string {
  return typeof reason === 'object' && reason !== null && 'code' in reason ? String(reason.code) : 'UNKNOWN';
}

function unique(outcome: PromiseSettledResult<string[]>): string[] {
  return outcome.status === 'fulfilled' ? [...new Set(outcome.value)] : [];
}
