import { ResourceExhaustedError } from '@ipdata/common';
import type { ResolvedApiKey } from '@ipdata/auth/client';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import type { UsageLedger } from './ledger/usage-ledger.js';
import type { UsageRecord } from './ledger/usage-record.js';
import type { QuotaService } from './quota/quota.service.js';
import { periodOf } from './quota/quota-period.js';
import { quotaSubjectOf, type QuotaDecision, type QuotaRequest, type QuotaSubject } from './quota/quota.types.js';

/** A request's authenticated caller: its key and the quota it counts against. */
export interface Caller {
  key: ResolvedApiKey;
  subject: QuotaSubject;
}

/** What a usage event says about an accepted request besides who and when. */
export type UsageFacts = Pick<
  UsageRecord,
  'endpoint' | 'ip' | 'ipVersion' | 'countryCode' | 'province' | 'result' | 'httpStatus' | 'count' | 'freeCount' | 'plat'
>;

/** Who an event is for: an API key's account, or a website visitor (and the account when logged in). */
export type UsageOwner = Pick<QuotaSubject, 'accountId' | 'keyId'> & { visitorId?: string };

/** The quota said no: 429 at the edge, with the decision's header values and Retry-After. */
export class QuotaDeniedError extends ResourceExhaustedError {
  constructor(
    readonly decision: QuotaDecision,
    readonly subject: QuotaSubject,
  ) {
    super(
      decision.denied === 'burst_exceeded'
        ? `More than ${subject.burstPerSecond} requests per second with this key.`
        : `The monthly quota of ${decision.limit} lookups is used up.`,
      {
        reason: decision.denied ?? 'quota_exceeded',
        // A Retry-After of 0 invites a busy loop.
        details: { retryAfterSeconds: String(Math.max(1, Math.ceil(decision.retryAfterSeconds ?? 1))) },
      },
    );
  }
}

/**
 * The metering of one face: the quota (reserve before answering) and the usage ledger (record
 * right before the answer is written, awaited: the event is stored when it resolves, so an
 * answered request is never lost). Either half may be off (benchmarks only): reserve then grants
 * everything with the plan's header values, record does nothing.
 */
export class Metering {
  constructor(
    private readonly quota: QuotaService | undefined,
    private readonly ledger: UsageLedger | undefined,
    private readonly defaultBurstPerSecond: number,
  ) {}

  caller(key: ResolvedApiKey): Caller {
    return { key, subject: quotaSubjectOf(key, { burstPerSecond: this.defaultBurstPerSecond }) };
  }

  /**
   * Reserves `count` lookups for request `requestId` (0 for a request that only reads: it still
   * counts for the burst limit). Returns the decision, whose limit/remaining/resetAt are the
   * answer's quota headers; throws QuotaDeniedError (429) when the quota or burst limit says no,
   * and QuotaUnavailableError (503) when Redis does not answer and the fail rule refuses.
   * A `partial` request (batch) may be granted fewer.
   */
  async reserve(requestId: string, nowMs: number, caller: Caller, count: number, partial: boolean): Promise<QuotaDecision> {
    const decision = await this.decide({ subject: caller.subject, requestId, count, partial, checkBurst: true }, nowMs);
    if (decision.denied !== undefined) throw new QuotaDeniedError(decision, caller.subject);
    return decision;
  }

  /**
   * A reservation for work the server runs itself (a bulk chunk, id `<jobId>:<chunk>`): no burst
   * check, partial, never throws for a denial (granted 0 says it), idempotent by its id for as
   * long as a job can be resumed (`durable`).
   */
  reserveChunk(subject: QuotaSubject, requestId: string, count: number, nowMs: number): Promise<QuotaDecision> {
    return this.decide({ subject, requestId, count, partial: true, checkBurst: false, durable: true }, nowMs);
  }

  /**
   * Gives back what `decision` granted when the work failed after the reservation (a failed
   * lookup is never charged). Returns the decision as it stands after the release (the answer's
   * headers); the store is updated in the background.
   */
  release(requestId: string, nowMs: number, caller: Caller, decision: QuotaDecision): QuotaDecision {
    const { granted, limit } = decision;
    if (this.quota === undefined || granted <= 0) return decision;
    const used = decision.used - granted;
    void this.quota.release(caller.subject, requestId, granted, decision.at ?? new Date(nowMs), decision.leased === true);
    return Object.assign({}, decision, { granted: 0, used, remaining: Math.max(0, limit - used) });
  }

  /** The caller's month so far (GET /v1/usage). */
  status(caller: Caller): ReturnType<QuotaService['status']> | undefined {
    return this.quota?.status(caller.subject);
  }

  /** Await it before writing the answer (UsageLedger.record: the event is stored when it resolves). */
  record(
    who: UsageOwner,
    facts: UsageFacts,
    requestId: string,
    latencyMs: number,
    time: Date,
    channel: UsageChannel = UsageChannel.USAGE_CHANNEL_PUBLIC_API,
  ): Promise<void> {
    if (this.ledger === undefined) return STORED;
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

  /**
   * The request is one object literal, never `{ ...request, subject }`: V8 gives every object
   * that adds properties after a leading spread a hidden class of its own, one per request, and
   * the dead classes filled the old generation (eslint.config.js, HOT_PATH_FILES).
   */
  private async decide(request: QuotaRequest, nowMs: number): Promise<QuotaDecision> {
    if (this.quota === undefined) {
      const limit = request.subject.includedPerMonth;
      const { resetAt } = periodOf(new Date(nowMs));
      return { granted: request.count, limit, remaining: limit, resetAt, used: 0, overage: 0 };
    }
    return this.quota.reserve(request);
  }
}

/** What record() answers with the ledger off (benchmarks only). */
const STORED = Promise.resolve();
