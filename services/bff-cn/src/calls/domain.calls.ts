import type { DomainService } from '../domains/domain.service.js';
import { faceADomainName } from '../domains/domain.service.js';
import { badInput } from '../face-a/envelope.js';
import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { WhoisService } from '../whois/whois.service.js';

const DOMAIN = { kind: 'string', label: '域名', required: true, maxLength: 253 } as const;

export interface DomainCallsDeps {
  domains: DomainService;
  whois: WhoisService;
}

/** Domains and WHOIS (spec: 域名查询, 反查, WHOIS). */
export function domainCalls(deps: DomainCallsDeps): FaceACall[] {
  const search = (name: string, path: string, methods: readonly ('GET' | 'POST')[]) =>
    defineCall({
      name,
      path,
      methods,
      needsLogin: false,
      silent: false,
      input: { domain: DOMAIN },
      handle: async (context, { domain }) => ({ data: await deps.domains.lookUpDomain(context, domain, name) }),
    });
  return [
    search('v2/queryDomain', '/v2/queryDomain', ['GET']),
    search('ip_search_domain', '/v1/ip_search_domain', ['POST']),
    // The spec's spelling; the newer page calls this one. Same answer.
    search('ip_search_Domin_new', '/v1/ip_search_Domin_new', ['POST']),
    defineCall({
      name: 'get_domain_by_ip',
      path: '/v1/get_domain_by_ip',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { ip: { kind: 'ip', label: 'IP 地址', required: true } },
      handle: async (context, { ip }) => ({ data: await deps.domains.reverse(context, ip) }),
    }),
    defineCall({
      name: 'get_whois',
      path: '/v1/get_whois',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        domain: { ...DOMAIN, required: false },
        ip: { kind: 'ip', label: 'IP 地址', required: false },
      },
      handle: async (context, { domain, ip }) => {
        if ((domain === undefined) === (ip === undefined)) throw badInput('请输入域名或 IP 地址（二选一）');
        const name = domain === undefined ? undefined : faceADomainName(domain);
        await deps.domains.takeTool(context);
        return {
          data: name !== undefined ? await deps.whois.domain(name) : await deps.whois.address(ip as NonNullable<typeof ip>),
        };
      },
    }),
  ];
}
