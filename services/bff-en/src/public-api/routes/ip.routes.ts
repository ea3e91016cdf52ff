import { ANSWER_ERROR, checkAddress, compactAnswerInfo, type CheckedAddress } from '@ipdata/lookup-engine/client';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { LookupBatcher } from '../../lookups/lookup-batcher.js';
import type { CompactAnswer } from '../../lookups/lookup.ports.js';
import type { Accounting, Caller } from '../accounting.js';
import { JSON_TYPE, type ApiCall } from '../api-call.js';
import { ApiError, badRequest } from '../api-error.js';
import type { ClientAddressResolver } from '@ipdata/common';
import type { PublicRoute } from '../public-route.js';
import { sendView, wantsCsv } from '../render.js';
import { compactAnswerFacts, answerFactsOf, type AnswerFacts } from '../answer-facts.js';
import { answerJson } from '../views/batch-json.js';
import { ipInfoJson } from '../views/json-output.js';
import { fieldValueText } from '../views/field-selector.js';
import { IP_INFO_FIELDS, PRIVACY_FIELDS, ipInfoView, privacyView } from '../views/ip-info.view.js';

export interface IpRoutesDeps {
  accounting: Accounting;
  lookups: LookupBatcher;
  clientAddress: ClientAddressResolver;
}

export function invalidIp(input: string): ApiError {
  return badRequest(
    'invalid_ip',
    `"${input.length > 100 ? `${input.slice(0, 100)}…` : input}" is not an IPv4 or IPv6 address.`,
    'Send one address such as 8.8.8.8 or 2001:4860:4860::8888 (no port, no zone, no CIDR suffix).',
  );
}

/** An address's answer: made here (a special-purpose address), or the engine's, kept compact. */
type IpAnswer = { info: IpInfo } | CompactAnswer;

const infoOf = (answer: IpAnswer): IpInfo => ('info' in answer ? answer.info : compactAnswerInfo(answer.batch, answer.at));

/**
 * One address: invalid input is a free 400; a special-purpose address is answered here, free,
 * without asking the engine; an ordinary one is looked up while one lookup is reserved, at the
 * same time: the answer waits for the slower of the two round trips, not for both in turn
 * (measured +11% requests/s and a lower p99 at 50 connections, paired runs). A lookup that fails
 * after its grant (engine down) gives the grant back (Accounting.release): it is never charged,
 * and the quota counters and the usage ledger (written only for answers) agree.
 */
async function lookUp(call: ApiCall, caller: Caller, input: string, endpoint: string, deps: IpRoutesDeps): Promise<IpAnswer> {
  const address = checkAddress(input);
  if (address === undefined) {
    await deps.accounting.reserve(call, caller, 0, false);
    throw invalidIp(input);
  }
  if (address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
    await deps.accounting.reserve(call, caller, 0, false);
    const info = IpInfo.fromPartial({ ip: address.text, reserved: address.reserved });
    await record(call, caller, deps, endpoint, address, answerFactsOf(info), 0);
    return { info };
  }
  const lookup = deps.lookups.lookup(address.text);
  const reservation = deps.accounting.reserveDecision(call, caller, 1, false);
  let answer: CompactAnswer;
  try {
    [answer] = await Promise.all([lookup, reservation]);
  } catch (error) {
    // Refused by the quota (nothing to give back), or the lookup failed: then wait for the grant.
    const granted = await reservation.catch(() => undefined);
    if (granted !== undefined) deps.accounting.release(call, caller, granted);
    throw error;
  }
  if (answer.batch.columns.form[answer.at] === ANSWER_ERROR) {
    deps.accounting.release(call, caller, await reservation);
    throw invalidIp(input);
  }
  await record(call, caller, deps, endpoint, address, compactAnswerFacts(answer), 1);
  return answer;
}

function record(
  call: ApiCall,
  caller: Caller,
  deps: IpRoutesDeps,
  endpoint: string,
  address: CheckedAddress,
  facts: AnswerFacts,
  count: 0 | 1,
): Promise<void> {
  return deps.accounting.record(call, caller, {
    endpoint,
    ip: address.text,
    ipVersion: address.family,
    ...facts,
    httpStatus: 200,
    count,
    freeCount: 1 - count,
  });
}

/**
 * The full answer with no options (most requests): the engine's answer copied from its parts'
 * cached JSON (answerJson), builds no IpInfo (decoding the parts, the view and the JSON string
 * were ~12% of the main thread's busy time under GET load: docs/adr/0003); one made here takes the
 * specialised serialiser (docs/adr/0004).
 */
function sendIpInfo(call: ApiCall, answer: IpAnswer): void {
  if (call.param('fields') === null && call.param('pretty') === null && !wantsCsv(call)) {
    if ('info' in answer) call.sendJsonText(200, ipInfoJson(ipInfoView(answer.info), answer.info));
    else call.send(200, JSON_TYPE, answerJson(answer.batch, answer.at));
    return;
  }
  sendView(call, ipInfoView(infoOf(answer)), IP_INFO_FIELDS);
}

function callerIp(call: ApiCall, deps: IpRoutesDeps): string {
  const ip = deps.clientAddress.clientIp(call.request);
  if (ip === '')
    throw new ApiError(400, 'unknown_client_ip', 'Your address could not be determined.', 'Ask for an address: /v1/ip/{ip}.');
  return ip;
}

export function ipRoutes(deps: IpRoutesDeps): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/ip/{ip}',
      auth: true,
      handle: async (call, [ip = ''], caller) => {
        sendIpInfo(call, await lookUp(call, caller as Caller, ip, '/v1/ip/{ip}', deps));
      },
    },
    {
      method: 'GET',
      path: '/v1/ip',
      auth: true,
      handle: async (call, _params, caller) => {
        sendIpInfo(call, await lookUp(call, caller as Caller, callerIp(call, deps), '/v1/ip', deps));
      },
    },
    {
      method: 'GET',
      path: '/v1/ip/{ip}/{field}',
      auth: true,
      handle: async (call, [ip = '', field = ''], caller) => {
        // An unknown field is refused before anything is counted.
        fieldValueText(ipInfoView(IpInfo.fromPartial({})), field);
        const info = infoOf(await lookUp(call, caller as Caller, ip, '/v1/ip/{ip}/{field}', deps));
        call.send(200, 'text/plain; charset=utf-8', fieldValueText(ipInfoView(info), field));
      },
    },
    {
      method: 'GET',
      path: '/v1/privacy/{ip}',
      auth: true,
      handle: async (call, [ip = ''], caller) => {
        const info = infoOf(await lookUp(call, caller as Caller, ip, '/v1/privacy/{ip}', deps));
        sendView(call, privacyView(info), PRIVACY_FIELDS);
      },
    },
  ];
}
