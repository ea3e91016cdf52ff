import { checkAddress } from '@ipdata/lookup-engine/client';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { DomainResolver } from '../../domain-lookup/domain-resolver.js';
import type { LookupEngine } from '../../lookups/lookup.ports.js';
import type { Accounting, Caller } from '../accounting.js';
import type { PublicRoute } from '../public-route.js';
import { jsonText, selectorOf, wantsCsv, CSV_TYPE } from '../render.js';
import { csvBatch } from '../views/csv.js';
import { IP_INFO_FIELDS, ipInfoView } from '../views/ip-info.view.js';

/**
 * GET /v1/domain/{name}: the name's A and AAAA records, each looked up. Every public address
 * counts one lookup, all or nothing (a domain answer is not split); special-purpose addresses
 * (a name pointing at 127.0.0.1) are answered free.
 */
export function domainRoutes(deps: { accounting: Accounting; engine: LookupEngine; domains: DomainResolver }): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/domain/{name}',
      auth: true,
      handle: async (call, [name = ''], caller) => {
        const selector = selectorOf(call, IP_INFO_FIELDS);
        const csv = wantsCsv(call);
        const records = await deps.domains.resolve(name);
        const infos: IpInfo[] = [];
        const publicIps: string[] = [];
        const publicAt: number[] = [];
        for (const text of [...records.a, ...records.aaaa]) {
          const address = checkAddress(text);
          if (address === undefined) continue;
          if (address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
            infos.push(IpInfo.fromPartial({ ip: address.text, reserved: address.reserved }));
          } else {
            publicAt.push(infos.length);
            infos.push(IpInfo.fromPartial({ ip: address.text }));
            publicIps.push(address.text);
          }
        }
        const answers = publicIps.length === 0 ? [] : await deps.engine.batchLookup(publicIps);
        publicAt.forEach((at, i) => {
          const info = answers[i]?.info;
          if (info !== undefined) infos[at] = info;
        });
        await deps.accounting.reserve(call, caller as Caller, publicIps.length, false);
        await deps.accounting.record(call, caller as Caller, {
          endpoint: '/v1/domain/{name}',
          ip: '',
          ipVersion: 0,
          countryCode: infos[0]?.countryCode ?? '',
          province: '',
          result: publicIps.length > 0 ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_RESERVED,
          httpStatus: 200,
          count: publicIps.length,
          freeCount: infos.length - publicIps.length,
        });
        const views = infos.map((info) => selector.apply(ipInfoView(info)));
        if (csv) {
          call.send(
            200,
            CSV_TYPE,
            csvBatch(
              views.map((view) => ({ view })),
              selector.columns,
            ),
          );
          return;
        }
        call.sendJsonText(200, jsonText(call, { domain: records.name, addresses: views }));
      },
    },
  ];
}
