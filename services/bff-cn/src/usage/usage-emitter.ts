import { systemClock, type Clock } from '@ipdata/common';
import type { Metering, UsageFacts } from '@ipdata/metering';
import { UsageChannel, type UsageResult } from '@ipdata/proto/events/v1/usage';
import type { CallContext } from '../face-a/face-a-call.js';

export interface FaceAUsage {
  endpoint: string;
  ip: string;
  ipVersion: 0 | 4 | 6;
  countryCode: string;
  province: string;
  result: UsageResult;
  count: number;
  freeCount: number;
}

/**
 * One UsageEvent per face A lookup (channel WEB_CN, the visitor id, the account when logged in)
 * through metering's usage ledger, as face B's: record() resolves once the event is stored, and
 * the call answers only then, so an answered lookup's event is never lost. Face A has no quota.
 */
export class UsageEmitter {
  constructor(
    private readonly metering: Pick<Metering, 'record'>,
    private readonly clock: Clock = systemClock,
  ) {}

  record(context: CallContext, usage: FaceAUsage): Promise<void> {
    const facts: UsageFacts = {
      endpoint: usage.endpoint,
      ip: usage.ip,
      ipVersion: usage.ipVersion,
      countryCode: usage.countryCode,
      province: usage.province,
      result: usage.result,
      httpStatus: 200,
      count: usage.count,
      freeCount: usage.freeCount,
      plat: context.plat,
    };
    return this.metering.record(
      { accountId: context.accountId ?? '', keyId: '', visitorId: context.visitorId },
      facts,
      context.requestId,
      Math.max(0, performance.now() - context.startedAt),
      this.clock.now(),
      UsageChannel.USAGE_CHANNEL_WEB_CN,
    );
  }
}
