import { UsageResult } from '@ipdata/proto/events/v1/usage';
import type { LookupEngine } from '../../lookups/lookup.ports.js';
import type { Accounting, Caller } from '../accounting.js';
import { badRequest } from '../api-error.js';
import type { ApiCall } from '../api-call.js';
import type { PublicRoute } from '../public-route.js';
import { sendView } from '../render.js';
import { ASN_FIELDS, asnView } from '../views/asn.view.js';

const ASN_PATTERN = /^(?:AS)?(\d{1,10})$/i;

function asnNumber(input: string): number {
  const match = ASN_PATTERN.exec(input);
  const value = match === null ? NaN : Number(match[1]);
  if (!Number.isInteger(value) || value < 1 || value > 4_294_967_295) {
    throw badRequest('invalid_asn', `"${input.slice(0, 40)}" is not an AS number.`, 'Send AS13335 or 13335 (1 to 4294967295).');
  }
  return value;
}

function intParam(call: ApiCall, name: string, fallback: number, max: number): number {
  const text = call.param(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) {
    throw badRequest(`invalid_${name}`, `${name} must be a whole number from 1 to ${max}.`, `Send ${name}=1 … ${max}.`);
  }
  return value;
}

export function asnRoutes(deps: { accounting: Accounting; engine: LookupEngine }): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/asn/{asn}',
      auth: true,
      handle: async (call, [input = ''], caller) => {
        const asn = asnNumber(input);
        const page = intParam(call, 'page', 1, 1_000_000);
        const pageSize = intParam(call, 'page_size', 100, 1_000);
        // An unknown ASN (404) or an engine failure is not charged.
        const answer = await deps.engine.lookupAsn(asn, page, pageSize);
        await deps.accounting.reserve(call, caller as Caller, 1, false);
        await deps.accounting.record(call, caller as Caller, {
          endpoint: '/v1/asn/{asn}',
          ip: '',
          ipVersion: 0,
          countryCode: answer.countryCode ?? '',
          province: '',
          result: UsageResult.USAGE_RESULT_FOUND,
          httpStatus: 200,
          count: 1,
          freeCount: 0,
        });
        sendView(call, asnView(answer), ASN_FIELDS);
      },
    },
  ];
}
