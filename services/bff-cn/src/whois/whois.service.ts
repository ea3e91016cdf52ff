import { NotFoundError, UnavailableError } from '@ipdata/common';
import type { CheckedAddress } from '@ipdata/lookup-engine/client';
import {
  type DomainWhoisFields,
  type IpWhoisFields,
  type ReferralRules,
  type WhoisServer,
  domainFields,
  ipFields,
  referralOf,
} from './whois-parse.js';
import { WhoisExchangeError, type WhoisFailure, whoisExchange } from './whois-transport.js';

export interface WhoisOptions extends ReferralRules {
  /** The first server asked (WHOIS_SERVER, default whois.iana.org:43). */
  readonly server: WhoisServer;
  /** Connect + answer per hop (WHOIS_TIMEOUT_MS). */
  readonly hopTimeoutMs: number;
  /** All hops together. */
  readonly overallTimeoutMs: number;
  /** Per answer (256 KiB). */
  readonly maxBytes: number;
  /** Servers asked at most: the first one and two referrals (IANA → registry → registrar). */
  readonly maxHops: number;
}

export interface WhoisAnswer {
  query: string;
  kind: 'domain' | 'ip';
  /** `host:port` of each server asked, in order. */
  servers: string[];
  answers: Array<{ server: string; text: string }>;
  /** The last answer's text (the most specific one). */
  raw: string;
  /** Parsed from the last answer; absent fields are null / empty. */
  fields: DomainWhoisFields | IpWhoisFields;
  /** Set when a referred server could not be asked: the answers so far are still given. */
  referral_error: string | null;
}

const FAILURE_MSG: Readonly<Record<WhoisFailure, string>> = {
  timeout: 'WHOIS 服务器响应超时，请稍后再试',
  unreachable: 'WHOIS 服务器无法连接，请稍后再试',
  too_large: 'WHOIS 服务器应答过大',
};

/** Registry, registrar and IANA answers for a name or address nobody holds (the last answer is tested). */
const NOT_FOUND =
  /^\s*(?:no match for|not found|no entries found|no data found|no object found|the queried object does not exist|%error: 101|%\s*this query returned 0 objects)/im;

/**
 * get_whois: ask the configured server, follow the referral to the registry and on to the
 * registrar or RIR (at most `maxHops` servers, each at most once, under one overall deadline).
 * The first server failing is the call's failure; a referred server failing leaves the answers
 * so far with `referral_error`.
 */
export class WhoisService {
  constructor(private readonly options: WhoisOptions) {}

  async domain(name: string): Promise<WhoisAnswer> {
    return this.ask(name, 'domain');
  }

  async address(address: CheckedAddress): Promise<WhoisAnswer> {
    return this.ask(address.text, 'ip');
  }

  private async ask(query: string, kind: 'domain' | 'ip'): Promise<WhoisAnswer> {
    const deadline = Date.now() + this.options.overallTimeoutMs;
    const answers: Array<{ server: string; text: string }> = [];
    let next: WhoisServer | undefined = this.options.server;
    let referralError: string | null = null;
    while (next !== undefined && answers.length < this.options.maxHops) {
      const label = `${next.host}:${next.port}`;
      const remaining = deadline - Date.now();
      let text: string;
      try {
        if (remaining <= 0) throw new WhoisExchangeError('timeout', label);
        text = await whoisExchange(next.host, next.port, query, {
          timeoutMs: Math.min(this.options.hopTimeoutMs, remaining),
          maxBytes: this.options.maxBytes,
        });
      } catch (error) {
        if (!(error instanceof WhoisExchangeError)) throw error;
        // Face A's words for the user (code 503), not the server's: `expose`.
        if (answers.length === 0) throw new UnavailableError(FAILURE_MSG[error.failure], { expose: true });
        referralError = FAILURE_MSG[error.failure];
        break;
      }
      answers.push({ server: label, text });
      const referral = referralOf(text, this.options);
      const seen = new Set(answers.map((answer) => answer.server));
      next = referral !== undefined && !seen.has(`${referral.host}:${referral.port}`) ? referral : undefined;
    }
    const last = answers.at(-1) as { server: string; text: string };
    if (last.text.trim() === '' || NOT_FOUND.test(last.text)) {
      throw new NotFoundError(kind === 'domain' ? '未查询到该域名的 WHOIS 信息' : '未查询到该 IP 的 WHOIS 信息');
    }
    return {
      query,
      kind,
      servers: answers.map((answer) => answer.server),
      answers,
      raw: last.text,
      fields: kind === 'domain' ? domainFields(last.text) : ipFields(last.text),
      referral_error: referralError,
    };
  }
}
