import type { ResolvedApiKey } from '@ipdata/auth/client';
import {
  QuotaDeniedError,
  QuotaUnavailableError,
  type Caller,
  type Metering,
  type QuotaDecision,
  type QuotaSubject,
  type UsageFacts,
  type UsageOwner,
} from '@ipdata/metering';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type { ApiCall } from './api-call.js';
import { ApiError } from './api-error.js';

export type { Caller, UsageFacts };

/**
 * The public API's view of metering (services/metering): the same calls with the request
 * (ApiCall) as their subject. reserve() puts the decision's quota header values on the call and
 * turns a denial into the API's 429 and an unavailable quota into 503; record() is awaited right
 * before the answer is written (the event is stored when it resolves).
 */
export class Accounting {
  constructor(private readonly metering: Metering) {}

  caller(key: ResolvedApiKey): Caller {
    return this.metering.caller(key);
  }

  /** Reserves `count` lookups (0 for a request that only reads) and returns how many were granted. */
  async reserve(call: ApiCall, caller: Caller, count: number, partial: boolean): Promise<number> {
    return (await this.reserveDecision(call, caller, count, partial)).granted;
  }

  /** reserve() with the whole decision (used, overage) for callers that need more than the count. */
  async reserveDecision(call: ApiCall, caller: Caller, count: number, partial: boolean): Promise<QuotaDecision> {
    try {
      const decision = await this.metering.reserve(call.requestId, call.nowMs, caller, count, partial);
      call.quota = decision;
      return decision;
    } catch (error) {
      throw apiErrorOf(call, error);
    }
  }

  /** A bulk chunk's reservation (Metering.reserveChunk). */
  reserveChunk(subject: QuotaSubject, requestId: string, count: number, nowMs: number): Promise<QuotaDecision> {
    return this.metering.reserveChunk(subject, requestId, count, nowMs);
  }

  /** Gives back what the request was granted when its work failed after the reservation. */
  release(call: ApiCall, caller: Caller, decision: QuotaDecision): void {
    call.quota = this.metering.release(call.requestId, call.nowMs, caller, decision);
  }

  /** The caller's month so far (GET /v1/usage). */
  status(caller: Caller): ReturnType<Metering['status']> {
    return this.metering.status(caller);
  }

  /** Await it before writing the answer. */
  record(call: ApiCall, caller: Caller, facts: UsageFacts): Promise<void> {
    return this.metering.record(caller.subject, facts, call.requestId, call.elapsedMs(), new Date(call.nowMs));
  }

  /** A usage event for work without a public API request of its own (a bulk chunk, the web lookup tool). */
  recordAs(
    who: UsageOwner,
    facts: UsageFacts,
    requestId: string,
    latencyMs: number,
    time: Date,
    channel: UsageChannel = UsageChannel.USAGE_CHANNEL_PUBLIC_API,
  ): Promise<void> {
    return this.metering.record(who, facts, requestId, latencyMs, time, channel);
  }
}

function apiErrorOf(call: ApiCall, error: unknown): unknown {
  if (error instanceof QuotaDeniedError) {
    call.quota = error.decision;
    const headers = { 'Retry-After': String(error.details['retryAfterSeconds'] ?? '1') };
    return error.decision.denied === 'burst_exceeded'
      ? new ApiError(429, 'rate_limited', error.message, 'Slow down and retry after the time given in Retry-After.', headers)
      : new ApiError(
          429,
          'quota_exceeded',
          error.message,
          'Wait until the quota resets (X-RateLimit-Reset) or upgrade your plan.',
          headers,
        );
  }
  if (error instanceof QuotaUnavailableError) {
    return new ApiError(
      503,
      'quota_unavailable',
      'The quota service is unavailable; free plans are not served until it is back.',
      'Retry in a few seconds.',
      { 'Retry-After': '5' },
    );
  }
  return error;
}
