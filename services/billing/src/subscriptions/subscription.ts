import type { Interval, Kind, Plan, PlanLimits, Tier } from '../plans/plan.js';

export type SubscriptionStatus = 'ACTIVE' | 'CANCELED';
export type ScheduledChange = { type: 'DOWNGRADE'; planId: string } | { type: 'CANCEL' } | null;
export type ChangeKind =
  'CREATED' | 'UPGRADED' | 'DOWNGRADE_SCHEDULED' | 'DOWNGRADED' | 'CANCEL_SCHEDULED' | 'CANCELED' | 'RENEWED';

/** Changes that start a new plan period (the others only announce one). */
export const PERIOD_STARTING_CHANGES: readonly ChangeKind[] = ['CREATED', 'UPGRADED', 'DOWNGRADED', 'CANCELED', 'RENEWED'];

/**
 * One change of an account's plan: the SubscriptionChanged event as billing keeps it. It is
 * stored with the subscription (outbox) before it is sent, and kept afterwards as the plan
 * history that invoices read.
 */
export interface SubscriptionChangeRecord {
  /** Also the event id, so a re-sent event is de-duplicated by consumers. */
  id: string;
  accountId: string;
  subscriptionId: string;
  kind: Kind;
  change: ChangeKind;
  planId: string;
  tier: Tier;
  interval: Interval;
  priceMinor: number;
  currency: string;
  limits: PlanLimits;
  periodStart: Date;
  periodEnd: Date | null;
  /** The paid order that caused it, if any (its plan charge is already paid). */
  orderId: string | null;
  /** When the plan state it describes took effect (period start, or when a change was scheduled). */
  effectiveAt: Date;
  occurredAt: Date;
  /** The subscription revision it produced: orders changes of one subscription with equal times. */
  revision: number;
}

/** The current plan of an account for one kind: one document per (account, kind). */
export interface Subscription {
  id: string;
  accountId: string;
  kind: Kind;
  planId: string;
  tier: Tier;
  interval: Interval;
  status: SubscriptionStatus;
  periodStart: Date;
  /** null = open-ended (FREE plans; quotas count calendar months). */
  periodEnd: Date | null;
  scheduled: ScheduledChange;
  /** Paid orders already applied, so a payment is applied once however often it is reported. */
  appliedOrderIds: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Optimistic concurrency: every write checks and increments it. */
  revision: number;
  /** Changes not yet confirmed as sent to Kafka (transactional outbox inside the document). */
  pendingEvents: SubscriptionChangeRecord[];
}

/** Builds the next state of a subscription on `plan` plus the change record describing it. */
export function withPlan(
  current: Subscription,
  plan: Plan,
  change: ChangeKind,
  options: { periodStart: Date; periodEnd: Date | null; now: Date; eventId: string; orderId?: string | null },
): Subscription {
  const next: Subscription = {
    ...current,
    planId: plan.id,
    tier: plan.tier,
    interval: plan.interval,
    status: 'ACTIVE',
    periodStart: options.periodStart,
    periodEnd: options.periodEnd,
    scheduled: null,
    updatedAt: options.now,
    revision: current.revision + 1,
  };
  return addChange(next, plan, change, options);
}

/** Records a change of `next` (already in its new state) in its outbox. */
export function addChange(
  next: Subscription,
  plan: Plan,
  change: ChangeKind,
  options: { now: Date; eventId: string; orderId?: string | null },
): Subscription {
  const record: SubscriptionChangeRecord = {
    id: options.eventId,
    accountId: next.accountId,
    subscriptionId: next.id,
    kind: next.kind,
    change,
    planId: plan.id,
    tier: plan.tier,
    interval: plan.interval,
    priceMinor: plan.priceMinor,
    currency: plan.currency,
    limits: change === 'CANCELED' && next.status === 'CANCELED' ? noLimits(plan) : plan.limits,
    periodStart: next.periodStart,
    periodEnd: next.periodEnd,
    orderId: options.orderId ?? null,
    effectiveAt: PERIOD_STARTING_CHANGES.includes(change) ? next.periodStart : options.now,
    occurredAt: options.now,
    revision: next.revision,
  };
  return { ...next, pendingEvents: [...next.pendingEvents, record] };
}

/** An ended subscription (VIP) grants nothing: quota and download code read zero limits. */
function noLimits(plan: Plan): PlanLimits {
  return { ...plan.limits, includedLookupsPerMonth: 0, overagePricePer1kMinor: 0, downloadableDatasets: [] };
}
