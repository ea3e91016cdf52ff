import { UnavailableError } from '@ipdata/common';
import type { ResolvedApiKey } from '@ipdata/auth/client';
import { PlanTier, type PlanLimits } from '@ipdata/proto/events/v1/billing';

/** Who a reservation is for and what their plan allows, from the resolved API key. */
export interface QuotaSubject {
  accountId: string;
  keyId: string;
  /** Paid plans continue past the included amount (overage) and fail open when Redis is down. */
  paid: boolean;
  includedPerMonth: number;
  /** Hard cap per month including overage; undefined = none (only meaningful with overage). */
  maxPerMonth: number | undefined;
  overageAllowed: boolean;
  /** Requests (not lookups) per second one key may start. */
  burstPerSecond: number;
}

export interface QuotaRequest {
  /**
   * The reservation's id: the request id of an API request (one reservation per request; its
   * script call is what is idempotent), `<jobId>:<chunk>` of a bulk chunk (`durable`: a retry
   * with the same id never counts twice). Must be made by the server, never taken from the
   * client, or a client could replay one grant for free.
   */
  requestId: string;
  subject: QuotaSubject;
  /** Lookups to reserve (a batch reserves its count at once); 0 is allowed and only counts as a request. */
  count: number;
  /** Batch/bulk chunk: grant up to what is left instead of all-or-nothing. */
  partial: boolean;
  /** false for work the server starts itself (bulk chunks), which is not a client request; default true. */
  checkBurst?: boolean;
  /**
   * true for reservations that may be retried much later with the same id (bulk chunks across a
   * restart): the grant is remembered for weeks instead of minutes. Default false, because a
   * stored grant per API request for weeks would fill Redis.
   */
  durable?: boolean;
}

export type QuotaDenial = 'quota_exceeded' | 'burst_exceeded';

export interface QuotaDecision {
  /** Lookups granted: `count`, fewer (partial) or 0 (denied). */
  granted: number;
  /** Monthly included amount, for X-RateLimit-Limit / RateLimit-Policy. */
  limit: number;
  /** Included lookups left this month (0 while in overage). */
  remaining: number;
  /** First instant of the next calendar month, UTC. */
  resetAt: Date;
  /** Lookups counted this month for the account, this reservation included. */
  used: number;
  /** Lookups above the included amount this month (billed as overage on paid plans). */
  overage: number;
  denied?: QuotaDenial;
  retryAfterSeconds?: number;
  /** Redis did not answer and the fail rule let this paid request through (counted later from its usage event). */
  degraded?: boolean;
  /** The same request id was reserved before: this is that decision again, nothing new counted. */
  replayed?: boolean;
  /** When the store decided it: a release (QuotaService.release) counts back in the same month and day. */
  at?: Date;
  /** Granted from this process's lease (QuotaLeases): `used`/`remaining` are as of the last lease round. */
  leased?: boolean;
}

export interface DayCount {
  /** YYYY-MM-DD, UTC. */
  date: string;
  count: number;
}

export interface QuotaStatus {
  limit: number;
  used: number;
  remaining: number;
  resetAt: Date;
  overage: number;
  maxPerMonth: number | undefined;
  /** Every day of the current month up to today, oldest first. */
  perDay: { account: DayCount[]; key: DayCount[] };
}

/** Redis cannot be asked and the fail rule refuses this request (free plans): the HTTP layer answers 503. */
export class QuotaUnavailableError extends UnavailableError {
  constructor(message = 'quota service temporarily unavailable', options: { cause?: unknown } = {}) {
    super(message, { reason: 'quota_unavailable', details: { retryAfterSeconds: '1' }, cause: options.cause });
  }
}

/**
 * The quota rules a resolved key carries. Free (and unknown) tiers stop at the included amount;
 * paid plans with an overage price continue up to `max_lookups_per_month` when the catalogue sets
 * one; 0 on the wire means "not set" for the cap and the burst.
 */
export function quotaSubjectOf(key: ResolvedApiKey, defaults: { burstPerSecond: number }): QuotaSubject {
  return quotaSubjectOfPlan({ accountId: key.accountId, keyId: key.keyId, tier: key.tier, limits: key.limits }, defaults);
}

/** The same rules from a plan (the dashboard reads an account's quota without a key). */
export function quotaSubjectOfPlan(
  plan: { accountId: string; keyId: string; tier: PlanTier; limits: PlanLimits | undefined },
  defaults: { burstPerSecond: number },
): QuotaSubject {
  const limits = plan.limits;
  const paid = plan.tier !== PlanTier.PLAN_TIER_FREE && plan.tier !== PlanTier.PLAN_TIER_UNSPECIFIED;
  const included = limits?.lookupsPerMonth ?? 0;
  const overageAllowed = paid && (limits?.overagePricePer1kMinor ?? 0) > 0;
  const cap = limits?.maxLookupsPerMonth ?? 0;
  const burst = limits?.burstPerSecond ?? 0;
  return {
    accountId: plan.accountId,
    keyId: plan.keyId,
    paid,
    includedPerMonth: included,
    maxPerMonth: overageAllowed && cap > 0 ? Math.max(cap, included) : undefined,
    overageAllowed,
    burstPerSecond: burst > 0 ? burst : defaults.burstPerSecond,
  };
}

/** What the store may count for the month: the included amount, the cap, or -1 for "no limit". */
export function monthlyCeiling(subject: QuotaSubject): number {
  if (!subject.overageAllowed) return subject.includedPerMonth;
  return subject.maxPerMonth ?? -1;
}
