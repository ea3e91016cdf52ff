import { Resolver } from 'node:dns/promises';
import { InvalidDomainNameError, asciiDomainName } from './domain-name.js';
import { reverseName } from './reverse-name.js';

/**
 * What one DNS question came to: `records` (at least one), `no_records` (NXDOMAIN or no data:
 * an answer, not an error), `timeout` (no server answered in time), `failed` (SERVFAIL, refused,
 * cancelled, ...). Callers word these themselves; internals never reach a message.
 */
export type DnsStatus = 'records' | 'no_records' | 'timeout' | 'failed';

export interface DnsResolverOptions {
  /** DNS servers as `ip` or `ip:port` (`[ipv6]:port`); default: the host's resolv.conf. */
  readonly servers?: readonly string[];
  /** Per query, in milliseconds (default 2,000). */
  readonly timeoutMs?: number;
  /** Attempts per server (default 1: callers wait for an HTTP answer, not a retry loop). */
  readonly tries?: number;
}

export interface AddressResolution {
  /** The name as queried: lower-case ASCII (IDN labels as punycode), no trailing dot. */
  readonly name: string;
  /** A records, duplicates removed, in the server's order. */
  readonly a: string[];
  readonly aaaa: string[];
  readonly aStatus: DnsStatus;
  readonly aaaaStatus: DnsStatus;
  /**
   * Both questions together, strictly: `timeout` when either timed out, else `failed` when either
   * failed, else `no_records` when neither has records, else `records`. A caller that accepts a
   * half answer checks the address lists first.
   */
  readonly status: DnsStatus;
}

export interface ReverseResolution {
  /** `records` when at least one PTR name came back. */
  readonly status: DnsStatus;
  /** PTR names: lower case, no trailing dot, printable ASCII only, duplicates removed, at most 20. */
  readonly names: string[];
}

const MAX_PTR_NAMES = 20;
// Printable ASCII without space: a PTR record's name is shown to people, never control characters.
const PRINTABLE_NAME = /^[\u0021-\u007e]{1,253}$/;

/**
 * A and AAAA (and PTR) through its own c-ares Resolver, so the servers and the timeout are the
 * caller's and not the process-wide `dns` settings. Configure public resolvers in production: the
 * host's resolver may answer names of the internal network, which an answer would then reveal.
 */
export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(options: DnsResolverOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 1 });
    if (options.servers !== undefined && options.servers.length > 0) this.resolver.setServers([...options.servers]);
  }

  /** A and AAAA at once. Throws InvalidDomainNameError (before any query) for what `asciiDomainName` refuses. */
  async resolveAddresses(domain: string): Promise<AddressResolution> {
    const name = asciiDomainName(domain);
    if (name === undefined) throw new InvalidDomainNameError();
    const [a, aaaa] = await Promise.allSettled([this.resolver.resolve4(name), this.resolver.resolve6(name)]);
    const aStatus = statusOf(a);
    const aaaaStatus = statusOf(aaaa);
    const both = [aStatus, aaaaStatus];
    const status: DnsStatus = both.includes('timeout')
      ? 'timeout'
      : both.includes('failed')
        ? 'failed'
        : both.includes('records')
          ? 'records'
          : 'no_records';
    return { name, a: unique(a), aaaa: unique(aaaa), aStatus, aaaaStatus, status };
  }

  /** PTR names of an address (IPv4 or IPv6 text). Throws RangeError for anything else. */
  async reverse(address: string): Promise<ReverseResolution> {
    const question = reverseName(address);
    if (question === undefined) throw new RangeError('not an IP address');
    const [outcome] = await Promise.allSettled([this.resolver.resolvePtr(question)]);
    const names =
      outcome.status === 'fulfilled'
        ? [
            ...new Set(
              outcome.value
                .map((name) => (name.endsWith('.') ? name.slice(0, -1) : name).toLowerCase())
                .filter((name) => PRINTABLE_NAME.test(name)),
            ),
          ].slice(0, MAX_PTR_NAMES)
        : [];
    const status = outcome.status === 'fulfilled' ? (names.length > 0 ? 'records' : 'no_records') : statusOf(outcome);
    return { status, names };
  }

  /** Ends the queries in flight (they fail with ECANCELLED). */
  shutdown(): void {
    this.resolver.cancel();
  }
}

/** c-ares codes for "the name has no such records": an answer, not an error of the lookup. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

function statusOf(outcome: PromiseSettledResult<string[]>): DnsStatus {
  if (outcome.status === 'fulfilled') return outcome.value.length > 0 ? 'records' : 'no_records';
  const reason: unknown = outcome.reason;
  const code = typeof reason === 'object' && reason !== null && 'code' in reason ? String(reason.code) : '';
  if (NO_RECORDS.has(code)) return 'no_records';
  return code === 'ETIMEOUT' ? 'timeout' : 'failed';
}

function unique(outcome: PromiseSettledResult<string[]>): string[] {
  return outcome.status === 'fulfilled' ? [...new Set(outcome.value)] : [];
}
