import { rateLimitKey } from '@ipdata/common/ip';
import type { CheckedAddress } from '@ipdata/lookup-engine/client';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { InvalidArgumentError, ResourceExhaustedError, type Logger } from '@ipdata/common';
import type { CallContext } from '../face-a/face-a-call.js';
import type { UsageEmitter } from '../usage/usage-emitter.js';
import type { IpLookupEngine, VisitorRateLimiter } from './lookup.ports.js';

export const RATE_LIMITED_MSG = '查询过于频繁，请稍后再试';

export interface FaceALookupsDeps {
  engine: IpLookupEngine;
  limiter: VisitorRateLimiter;
  usage: UsageEmitter;
  logger: Logger;
}

/**
 * Every face A single-address lookup: the visitor's rate limit (per client IPv4 address or IPv6
 * /64, not per API key: face A lookups count in trends, not against a quota), the engine (reserved
 * addresses are answered here without asking it), then one usage event.
 */
export class FaceALookups {
  constructor(private readonly deps: FaceALookupsDeps) {}

  /**
   * `fetch` replaces the engine's Lookup for calls that ask more about the address (the report
   * asks ExplainAddress) yet count as one lookup like the others.
   */
  async lookUp(
    context: CallContext,
    address: CheckedAddress,
    endpoint: string,
    fetch: (ip: string) => Promise<IpInfo> = (ip) => this.deps.engine.lookup(ip),
  ): Promise<IpInfo> {
    await this.limit(context);
    const reserved = address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED;
    const info = reserved ? IpInfo.fromPartial({ ip: address.text, reserved: address.reserved }) : await fetch(address.text);
    const found = info.countryCode !== undefined && info.countryCode !== '';
    await this.deps.usage.record(context, {
      endpoint,
      ip: address.text,
      ipVersion: address.family,
      countryCode: info.countryCode ?? '',
      province: info.countryCode === 'CN' ? (info.zh?.province ?? '') : '',
      result: reserved
        ? UsageResult.USAGE_RESULT_RESERVED
        : found
          ? UsageResult.USAGE_RESULT_FOUND
          : UsageResult.USAGE_RESULT_NOT_FOUND,
      count: reserved ? 0 : 1,
      freeCount: reserved ? 1 : 0,
    });
    return info;
  }

  /**
   * Counts one query of the visitor against the lookup limit (429 past it): lookUp's first step,
   * also taken by queries that are not about an address (the ASN calls).
   */
  async limit(context: CallContext): Promise<void> {
    const key = rateLimitKey(context.clientIp);
    if (key === undefined) throw new InvalidArgumentError('无法识别您的 IP 地址');
    let decision;
    try {
      decision = await this.deps.limiter.take(key);
    } catch (error) {
      // Redis down: the limit is abuse protection, not billing, so lookups go on (logged).
      this.deps.logger.warn({ err: error }, 'visitor rate limit unavailable; lookup allowed');
      return;
    }
    if (!decision.allowed) throw new ResourceExhaustedError(RATE_LIMITED_MSG);
  }
}
