import { secondsUntil, type QuotaPeriod } from './quota-period.js';
import type { ReserveOutcome } from './quota.ports.js';
import type { QuotaDecision, QuotaRequest, QuotaSubject } from './quota.types.js';

/** A reservation waiting for its script call, with the time it was made. */
export interface PendingReservation {
  request: QuotaRequest;
  now: Date;
  period: QuotaPeriod;
}

/** `leaseHeld`: nothing decided; the store asks to wait for leased lookups to come back (quota-leases.ts). */
export type SettledReservation = { decision: QuotaDecision } | { error: Error } | { leaseHeld: true };

/** The counts every decision carries (quota headers): included amount, what is left of it, overage. */
export function decisionCounts(subject: QuotaSubject, period: QuotaPeriod, granted: number, used: number): QuotaDecision {
  const included = subject.includedPerMonth;
  return {
    granted,
    limit: included,
    remaining: Math.max(0, included - used),
    resetAt: period.resetAt,
    used,
    overage: Math.max(0, used - included),
  };
}

export function deniedForQuota(decision: QuotaDecision, item: PendingReservation): QuotaDecision {
  decision.denied = 'quota_exceeded';
  decision.retryAfterSeconds = secondsUntil(item.now, item.period.resetAt);
  return decision;
}

/** The store's answer as the API's decision. */
export function decisionOf(item: PendingReservation, outcome: ReserveOutcome): QuotaDecision {
  const decision = decisionCounts(item.request.subject, item.period, outcome.granted, outcome.used);
  decision.at = item.now;
  if (outcome.status === 'quota_exceeded') deniedForQuota(decision, item);
  else if (outcome.status === 'burst_exceeded') {
    decision.denied = 'burst_exceeded';
    decision.retryAfterSeconds = secondsUntil(item.now, new Date((item.period.second + 1) * 1000));
  }
  if (outcome.replayed) decision.replayed = true;
  return decision;
}
