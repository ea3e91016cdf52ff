import type { ResolvedApiKey } from '@ipdata/auth/client';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import {
  QuotaUnavailableError,
  quotaSubjectOf,
  type QuotaDecision,
  type QuotaRequest,
  type QuotaService,
  type QuotaSubject,
} from '../quota/index.js';
import type { UsageLedger, UsageRecord } from '../usage/index.js';
import type { ApiCall } from './api-call.js';
import { ApiError } from './api-error.js';
import { noQuota } from './rate-limit-headers.js';

/** A request's authenticated caller: its key and the quota it counts against. */
export interface Caller {
  key: ResolvedApiKey;
  subject: QuotaSubject;
}

/** What a usage event says about an accepted request besides who and when. */
export type UsageFacts = Pick<
  UsageRecord,
  'endpoint' | 'ip' | 'ipVersion' | 'countryCode' | 'province' | 'result' | 'httpStatus' | 'count' | 'freeCount'
>;

/**
 * Quota and ledger for the public API: `reserve` before answering (429 when the quota or the
 * burst limit says no, 503 when the Redis rule refuses), `record` right before the answer is
 * written, awaited (the ledger has journalled the event when it resolves, so an answered request
 * is never lost).
 * With PUBLIC_API_ACCOUNTING=off (benchmarks only) both do nothing.
 */
export class Accounting {
  constructor(
    private readonly quota: QuotaService | undefined,
    private readonly ledger: UsageLedger | undefined,
    private readonly defaultBurstPerSecond: number,
  ) {}

  caller(key: ResolvedApiKey): Caller {
    return { key, subject: quotaSubjectOf(key, { burstPerSecond: this.defaultBurstPerSecond }) };
  }

  /**
   * Reserves `count` lookups (0 for a request that only reads: it still counts for the burst
   * limit and fills the quota headers). Returns how many were granted: all of them, or for a
   * `partial` request (batch, bulk chunk) possibly fewer; an all-or-nothing request that does
   * not fit is refused with 429.
   */
  async reserve(call: ApiCall, caller: Caller, count: number, partial: boolean): Promise<number> {
    return (await this.reserveDecision(call, caller, count, partial)).granted;
  }

  /** reserve() with the whole decision (used, overage) for callers that need more than the count. */
  async reserveDecision(call: ApiCall, caller: Caller, count: number, partial: boolean): Promise<QuotaDecision> {
    const request = { subject: caller.subject, requestId: call.requestId, count, partial, checkBurst: true };
    const decision = await this.decide(request, call.nowMs);
    call.quota = decision;
    if (decision.denied !== undefined) throw deniedError(caller, decision);
    return decision;
  }

  /**
   * A reservation for work the server runs itself (a bulk chunk, id `<jobId>:<chunk>`): no burst
   * check, partial, never throws for a denial (granted 0 says it), idempotent by its id for as
   * long as a job can be resumed (`durable`).
   */
  async reserveChunk(subject: QuotaSubject, requestId: string, count: number, nowMs: number): Promise<QuotaDecision> {
    return this.decide({ subject, requestId, count, partial: true, checkBurst: false, durable: true }, nowMs);
  }

  /**
   * The request is one object literal, never `{ ...request, subject }`: V8 (Node 20) gives every
   * object that adds properties after a leading spread a hidden class of its own, one per
   * request, and the dead classes filled the old generation (eslint.config.js, HOT_PATH_FILES).
   * `nowMs` is the caller's instant, which dates the plan's reset while accounting is off.
   */
  private async decide(request: QuotaRequest, nowMs: number): Promise<QuotaDecision> {
    if (this.quota === undefined) {
      const limit = request.subject.includedPerMonth;
      return { granted: request.count, limit, remaining: limit, resetAt: noQuota(nowMs).resetAt, used: 0, overage: 0 };
    }
    try {
      return await this.quota.reserve(request);
    } catch (error) {
      if (error instanceof QuotaUnavailableError) {
        throw new ApiError(
          503,
          'quota_unavailable',
          'The quota service is unavailable; free plans are not served until it is back.',
          'Retry in a few seconds.',
          { 'Retry-After': '5' },
        );
      }
      throw error;
    }
  }

  /**
   * Gives back the lookups this request was granted when its work failed after the reservation
   * (the lookup engine did not answer): a failed lookup is never charged. Not awaited by the
   * answer; the quota headers say what is left once it is applied.
   */
  release(call: ApiCall, caller: Caller, decision: QuotaDecision): void {
    const { granted, limit } = decision;
    if (this.quota === undefined || granted <= 0) return;
    const used = decision.used - granted;
    const released: QuotaDecision = Object.assign({}, decision, { granted: 0, used, remaining: Math.max(0, limit - used) });
    call.quota = released;
    void this.quota.release(
      caller.subject,
      call.requestId,
      granted,
      decision.at ?? new Date(call.nowMs),
      decision.leased === true,
    );
  }

  /** The caller's month so far (GET /v1/usage). */
  status(caller: Caller): ReturnType<QuotaService['status']> | undefined {
    return this.quota?.status(caller.subject);
  }

  /** Await it before writing the answer (UsageLedger.record: the event is journalled when it resolves). */
  record(call: ApiCall, caller: Caller, facts: UsageFacts): Promise<void> {
    return this.recordAs(caller.subject, facts, call.requestId, call.elapsedMs(), new Date(call.nowMs));
  }

  /**
   * A usage event for work without a public API request of its own: a bulk chunk (its id, its
   * duration), or the web app's lookup tool (channel WEB_EN, a visitor id, no key).
   */
  recordAs(
    who: Pick<QuotaSubject, 'accountId' | 'keyId'> & { visitorId?: string },
    facts: UsageFacts,
    requestId: string,
    latencyMs: number,
    time: Date,
    channel: UsageChannel = UsageChannel.USAGE_CHANNEL_PUBLIC_API,
  ): Promise<void> {
    if (this.ledger === undefined) return JOURNALLED;
    return this.ledger.record({
      requestId,
      channel,
      accountId: who.accountId,
      apiKeyId: who.keyId,
      visitorId: who.visitorId ?? '',
      ...facts,
      latencyMs: Math.round(latencyMs),
      time,
    });
  }
}

/** What record() answers with the ledger off (benchmarks only). */
const JOURNALLED = Promise.resolve();

function deniedError(caller: Caller, decision: QuotaDecision): ApiError {
  const retryAfter = String(Math.max(1, Math.ceil(decision.retryAfterSeconds ?? 1)));
  return decision.denied === 'burst_exceeded'
    ? new ApiError(
        429,
        'rate_limited',
        `More than ${caller.subject.burstPerSecond} requests per second with this key.`,
        'Slow down and retry after the time given in Retry-After.',
        { 'Retry-After': retryAfter },
      )
    : new ApiError(
        429,
        'quota_exceeded',
        `The monthly quota of ${decision.limit} lookups is used up.`,
        'Wait until the quota resets (X-RateLimit-Reset) or upgrade your plan.',
        { 'Retry-After': retryAfter },
      );
}
