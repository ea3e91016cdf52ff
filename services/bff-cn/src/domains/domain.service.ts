import {
  DeadlineExceededError,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
  UnavailableError,
  type DomainError,
} from '@ipdata/common';
import type { AddressResolution, DnsStatus, ReverseResolution } from '@ipdata/common/dns';
import { asciiDomainName } from '@ipdata/common/dns';
import { checkAddress, type CheckedAddress } from '@ipdata/lookup-engine/client';
import type { CallContext } from '../face-a/face-a-call.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import { type IpView, ipView } from '../lookups/ip-view.js';
import type { VisitorRateLimiter } from '../lookups/lookup.ports.js';
import { rateLimitKey } from '@ipdata/common/ip';

/** What the domain calls ask DNS (common's DnsResolver satisfies it). */
export interface DomainDns {
  resolveAddresses(domain: string): Promise<AddressResolution>;
  reverse(address: string): Promise<ReverseResolution>;
}

export interface DomainServiceDeps {
  dns: DomainDns;
  lookups: FaceALookups;
  /** get_domain_by_ip and get_whois per visitor (`domain_tools` scope). */
  toolLimiter: VisitorRateLimiter;
  logger: { warn(object: object, message: string): void };
}

/** A name with more addresses is answered with its first ones: each costs a lookup of the visitor's limit. */
export const MAX_DOMAIN_ADDRESSES = 16;
export const TOOL_RATE_LIMITED_MSG = '查询过于频繁，请稍后再试';

// Face A's words for the user, 503s included (`expose`).
const RESOLVE_FAILURE: Readonly<Record<Exclude<DnsStatus, 'records'>, () => DomainError>> = {
  no_records: () => new NotFoundError('域名不存在或没有解析记录'),
  timeout: () => new DeadlineExceededError('域名解析超时，请稍后再试', { expose: true }),
  failed: () => new UnavailableError('域名解析失败，请稍后再试', { expose: true }),
};

export interface DomainAnswer {
  domain: string;
  addresses: IpView[];
}

/** The ASCII form of a domain name (common's rules), or InvalidArgumentError "请输入正确的域名" (code 400). */
export function faceADomainName(input: string): string {
  const ascii = asciiDomainName(input);
  if (ascii === undefined) throw new InvalidArgumentError('请输入正确的域名');
  return ascii;
}

/**
 * queryDomain / ip_search_domain / ip_search_Domin_new and get_domain_by_ip. A domain's A and
 * AAAA addresses are each looked up like ip_search_zone (the visitor's lookup limit, one usage
 * event each); half an answer (A records, AAAA timed out) is answered with what came back.
 */
export class DomainService {
  constructor(private readonly deps: DomainServiceDeps) {}

  async lookUpDomain(context: CallContext, input: string, endpoint: string): Promise<DomainAnswer> {
    const domain = faceADomainName(input);
    const resolution = await this.deps.dns.resolveAddresses(domain);
    const addresses = [...resolution.a, ...resolution.aaaa]
      .map((text) => checkAddress(text))
      .filter((address): address is CheckedAddress => address !== undefined)
      .slice(0, MAX_DOMAIN_ADDRESSES);
    if (addresses.length === 0) {
      throw RESOLVE_FAILURE[resolution.status === 'records' ? 'no_records' : resolution.status]();
    }
    const views: IpView[] = [];
    // One at a time, each with a request id of its own (`<request id>:<n>`, as batch does): usage
    // events are de-duplicated by id, and each address is one lookup.
    for (const [index, address] of addresses.entries()) {
      const info = await this.deps.lookups.lookUp({ ...context, requestId: `${context.requestId}:${index}` }, address, endpoint);
      views.push(ipView(info));
    }
    return { domain: resolution.name, addresses: views };
  }

  async reverse(context: CallContext, address: CheckedAddress): Promise<{ ip: string; names: string[] }> {
    await this.takeTool(context);
    const { status, names } = await this.deps.dns.reverse(address.text);
    if (status === 'timeout') throw new DeadlineExceededError('反向解析超时，请稍后再试', { expose: true });
    if (status === 'failed') throw new UnavailableError('反向解析失败，请稍后再试', { expose: true });
    return { ip: address.text, names };
  }

  /** The domain tools' per-visitor limit; Redis down: allowed (logged), like lookups. */
  async takeTool(context: CallContext): Promise<void> {
    const key = rateLimitKey(context.clientIp);
    if (key === undefined) throw new InvalidArgumentError('无法识别您的 IP 地址');
    let allowed: boolean;
    try {
      ({ allowed } = await this.deps.toolLimiter.take(key));
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'domain tools rate limit unavailable; call allowed');
      return;
    }
    if (!allowed) throw new ResourceExhaustedError(TOOL_RATE_LIMITED_MSG);
  }
}
