import { z } from 'zod';
import { ANSWER_ERROR, checkAddress, compactAnswerInfo } from '@ipdata/lookup-engine/client';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { isDomainError, type VisitorIds } from '@ipdata/common';
import type { VisitorLimit } from '@ipdata/common/http-edge';
import { DOMAIN_ERRORS, type DomainResolver } from '../../domain-lookup/domain-resolver.js';
import type { LookupBatcher } from '../../lookups/lookup-batcher.js';
import type { Accounting } from '../../public-api/accounting.js';
import { apiErrorOf } from '../../public-api/api-error.js';
import { answerFactsOf } from '../../public-api/answer-facts.js';
import { ipInfoView } from '../../public-api/views/ip-info.view.js';
import { WebApiError, badRequest } from '../web-envelope.js';
import { text } from '../web-input.js';
import { defineWebRoute, type WebContext, type WebRoute } from '../web-route.js';

export interface LookupToolDeps {
  lookups: LookupBatcher;
  domains: DomainResolver;
  accounting: Accounting;
  visitorIds: VisitorIds;
  /** Lookup requests per visitor (an IPv4 address, an IPv6 /64) per window (Redis, shared by every bff-en). */
  visitorLimit: VisitorLimit;
}

/** A domain's addresses beyond this are listed without being looked up (a CDN name can have dozens). */
const MAX_DOMAIN_ADDRESSES = 8;

export const ENTER_ADDRESS = 'Please enter any IPv4 or IPv6 address';
export const TOO_MANY_LOOKUPS = 'Too many lookups from your address, please try again later';

/**
 * The site's lookup tool for anyone: an IPv4 or IPv6 address, a domain (each of its A and AAAA
 * addresses looked up) or nothing (the visitor's own address). Limited per visitor address, and
 * every answered lookup is a usage event like the API's (channel WEB_EN, the visitor's id, the
 * account when logged in), so stats see the tool's traffic.
 */
export function lookupRoutes(deps: LookupToolDeps): WebRoute[] {
  return [
    defineWebRoute({
      name: 'lookUp',
      method: 'GET',
      path: '/api/lookup',
      login: false,
      input: z.object({ q: text(253) }),
      handle: async (context, input) => {
        await deps.visitorLimit.take(context.clientIp);
        const query = input.q.trim() || context.clientIp;
        if (query === '') throw badRequest(ENTER_ADDRESS, 'q');
        const address = checkAddress(query);
        if (address !== undefined) {
          return { data: { query, kind: 'ip', results: [await lookUpOne(context, deps, address.text, '/api/lookup')] } };
        }
        if (!query.includes('.') || /[\s/:]/.test(query)) throw badRequest(ENTER_ADDRESS, 'q');
        const records = await resolveDomain(deps.domains, query);
        const addresses = [...records.a, ...records.aaaa];
        const results = [];
        for (const ip of addresses.slice(0, MAX_DOMAIN_ADDRESSES))
          results.push(await lookUpOne(context, deps, ip, '/api/lookup#domain'));
        return { data: { query: records.name, kind: 'domain', results, more_addresses: addresses.slice(MAX_DOMAIN_ADDRESSES) } };
      },
    }),
  ];
}

async function lookUpOne(context: WebContext, deps: LookupToolDeps, ip: string, endpoint: string) {
  const address = checkAddress(ip);
  if (address === undefined) throw badRequest(ENTER_ADDRESS, 'q');
  let info: IpInfo;
  let count: 0 | 1 = 0;
  if (address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
    info = IpInfo.fromPartial({ ip: address.text, reserved: address.reserved });
  } else {
    const { batch, at } = await deps.lookups.lookup(address.text);
    if (batch.columns.form[at] === ANSWER_ERROR) throw badRequest(ENTER_ADDRESS, 'q');
    info = compactAnswerInfo(batch, at);
    count = 1;
  }
  const accountId = context.token === undefined ? '' : await context.optionalAccount();
  await deps.accounting.recordAs(
    { accountId, keyId: '', visitorId: deps.visitorIds.of(context.clientIp, context.userAgent) },
    {
      endpoint,
      ip: address.text,
      ipVersion: address.family,
      ...answerFactsOf(info),
      httpStatus: 200,
      count,
      freeCount: 1 - count,
    },
    `${context.requestId}:${address.text}`,
    performance.now() - context.startedAt,
    context.now,
    UsageChannel.USAGE_CHANNEL_WEB_EN,
  );
  return ipInfoView(info);
}

const RESOLVER_REASONS: ReadonlySet<string> = new Set(Object.values(DOMAIN_ERRORS));

/** The resolver's refusals as the public API states them (status, code, message), in the tool's own shape. */
async function resolveDomain(domains: DomainResolver, name: string) {
  try {
    return await domains.resolve(name);
  } catch (error) {
    if (!isDomainError(error) || error.reason === undefined || !RESOLVER_REASONS.has(error.reason)) throw error;
    const answer = apiErrorOf(error);
    const msg =
      answer.status === 400 ? ENTER_ADDRESS : answer.status === 404 ? 'This domain has no IPv4 or IPv6 address' : answer.message;
    throw new WebApiError(answer.status, msg, { reason: answer.code, field: 'q' });
  }
}
