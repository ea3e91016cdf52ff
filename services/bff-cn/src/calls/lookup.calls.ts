import { checkAddress } from '@ipdata/lookup-engine/client';
import { CODE, FaceAError } from '../face-a/envelope.js';
import { defineCall, type CallContext, type FaceACall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import { areaView, asnView, ipView } from '../lookups/ip-view.js';

const IP = { kind: 'ip', label: 'IP 地址', required: true } as const satisfies FieldSpec;
const IP_INPUT = { ip: IP } as const;

/** The address lookups of face A: each one rate-limited per visitor and recorded as a usage event. */
export function lookupCalls(lookups: FaceALookups): FaceACall[] {
  const zone = (name: string) =>
    defineCall({
      name,
      path: `/v1/${name}`,
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: IP_INPUT,
      handle: async (context, { ip }) => ({ data: ipView(await lookups.lookUp(context, ip, name)) }),
    });
  return [
    defineCall({
      name: 'ip_self_search',
      path: '/v1/ip_self_search',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {},
      handle: async (context) => ({ data: ipView(await lookups.lookUp(context, callerAddress(context), 'ip_self_search')) }),
    }),
    zone('ip_search_zone'),
    // The spec names both; the newer page calls this one. Same answer.
    zone('ip_search_zone_new'),
    defineCall({
      name: 'v2/query',
      path: '/v2/query',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: IP_INPUT,
      handle: async (context, { ip }) => ({ data: ipView(await lookups.lookUp(context, ip, 'v2/query')) }),
    }),
    defineCall({
      name: 'v2/get_area',
      path: '/v2/get_area',
      // Listed with the silent POST calls in the spec; /v2 calls are GET with a query string too.
      methods: ['GET', 'POST'],
      needsLogin: false,
      silent: true,
      input: IP_INPUT,
      handle: async (context, { ip }) => ({ data: areaView(ipView(await lookups.lookUp(context, ip, 'v2/get_area'))) }),
    }),
    defineCall({
      name: 'asn_info_ip_search',
      path: '/v1/asn_info_ip_search',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: IP_INPUT,
      handle: async (context, { ip }) => {
        const view = asnView(await lookups.lookUp(context, ip, 'asn_info_ip_search'));
        if (view.asn === null) throw new FaceAError(CODE.notFound, '未找到该 IP 的 ASN 信息');
        return { data: view };
      },
    }),
  ];
}

function callerAddress(context: CallContext) {
  const address = checkAddress(context.clientIp);
  if (address === undefined) throw new FaceAError(CODE.badInput, '无法识别您的 IP 地址');
  return address;
}
