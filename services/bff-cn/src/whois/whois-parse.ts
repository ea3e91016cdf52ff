import { isIP } from 'node:net';
import { asciiDomainName } from '@ipdata/common/dns';

export interface WhoisServer {
  readonly host: string;
  readonly port: number;
}

export interface ReferralRules {
  /** IP literals as referral hosts (tests, a lab); registries refer by name. */
  readonly allowIpLiterals: boolean;
  /** Ports other than 43 (tests on local servers). */
  readonly allowAnyPort: boolean;
}

/**
 * `host[:port]` (`[v6]:port`) as configured or referred; undefined when malformed. A name must
 * pass the project's domain-name rules, which refuse anything but letters, digits, '-', '_', '.'.
 */
export function parseWhoisServer(text: string, rules: ReferralRules, defaultPort = 43): WhoisServer | undefined {
  const match = /^(?:\[(?<v6>[0-9a-f:.]+)\]|(?<host>[^:\s/]+))(?::(?<port>\d{1,5}))?$/i.exec(text.trim());
  if (match?.groups === undefined) return undefined;
  const port = match.groups.port === undefined ? defaultPort : Number(match.groups.port);
  if (port < 1 || port > 65_535 || (port !== 43 && !rules.allowAnyPort)) return undefined;
  const literal = match.groups.v6 ?? match.groups.host ?? '';
  if (isIP(literal) !== 0) return rules.allowIpLiterals ? { host: literal, port } : undefined;
  const host = asciiDomainName(literal);
  return host === undefined ? undefined : { host, port };
}

/**
 * The next server named by an answer: IANA's `refer:` / `whois:`, a thin registry's
 * `Registrar WHOIS Server:`, ARIN-style `ReferralServer: whois://host[:port]` (rwhois:// and
 * http(s):// referrals are not followed). Text that is no valid server is ignored.
 */
export function referralOf(answer: string, rules: ReferralRules): WhoisServer | undefined {
  for (const line of answer.split(/\r?\n/)) {
    const match = /^\s*(refer|whois|registrar whois server|referralserver)\s*:\s*(\S+)\s*$/i.exec(line);
    if (match === null) continue;
    const key = (match[1] as string).toLowerCase();
    let value = match[2] as string;
    if (key === 'referralserver') {
      if (!/^whois:\/\//i.test(value)) continue;
      value = value.slice('whois://'.length).replace(/\/$/, '');
    } else if (/^[a-z]+:\/\//i.test(value)) {
      value = value.replace(/^whois:\/\//i, '');
      if (value.includes('://')) continue;
    }
    const server = parseWhoisServer(value, rules);
    if (server !== undefined) return server;
  }
  return undefined;
}

export interface DomainWhoisFields {
  registrar: string | null;
  creation_date: string | null;
  expiry_date: string | null;
  name_servers: string[];
  status: string[];
}

export interface IpWhoisFields {
  netname: string | null;
  org: string | null;
  country: string | null;
  inetnum: string | null;
  cidr: string | null;
}

/** `key: value` pairs of an answer, keys lower-cased, comments (`%`, `#`) and empty values left out. */
function pairs(answer: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of answer.split(/\r?\n/)) {
    if (/^\s*[%#>]/.test(line)) continue;
    const match = /^\s*([A-Za-z][A-Za-z0-9 ._/-]{0,60}?)\s*:\s*(.+?)\s*$/.exec(line);
    if (match !== null) out.push([(match[1] as string).toLowerCase(), (match[2] as string).slice(0, 500)]);
  }
  return out;
}

function first(found: Array<[string, string]>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const hit = found.find(([name]) => name === key);
    if (hit !== undefined) return hit[1];
  }
  return null;
}

function all(found: Array<[string, string]>, keys: readonly string[], map: (value: string) => string): string[] {
  return [...new Set(found.filter(([name]) => keys.includes(name)).map(([, value]) => map(value)))];
}

/** The few fields face A shows of a domain's answer (gTLD RDDS labels, CNNIC's, RIPE-style), null where absent. */
export function domainFields(answer: string): DomainWhoisFields {
  const found = pairs(answer);
  return {
    registrar: first(found, ['registrar', 'sponsoring registrar', 'registrar name']),
    creation_date: first(found, ['creation date', 'registration time', 'created', 'registered']),
    expiry_date: first(found, [
      'registry expiry date',
      'registrar registration expiration date',
      'expiration time',
      'expiration date',
      'expires',
      'paid-till',
    ]),
    name_servers: all(found, ['name server', 'nserver'], (value) =>
      (value.split(/\s+/)[0] as string).toLowerCase().replace(/\.$/, ''),
    ),
    // "clientTransferProhibited https://icann.org/epp#..." → the status word only.
    status: all(found, ['domain status', 'status'], (value) => value.split(/\s+/)[0] as string),
  };
}

/** The few fields face A shows of an address's answer (ARIN and RIPE/APNIC-style labels), null where absent. */
export function ipFields(answer: string): IpWhoisFields {
  const found = pairs(answer);
  return {
    netname: first(found, ['netname']),
    org: first(found, ['orgname', 'org-name', 'organization', 'owner', 'descr']),
    country: first(found, ['country']),
    inetnum: first(found, ['inetnum', 'inet6num', 'netrange']),
    cidr: first(found, ['cidr', 'route', 'route6']),
  };
}
