import type { Kind } from '../plans/plan.js';
import type { Subscription, SubscriptionChangeRecord } from './subscription.js';

export interface SubscriptionRepository {
  find(accountId: string, kind: Kind): Promise<Subscription | null>;
  listByAccount(accountId: string): Promise<Subscription[]>;
  /** false when the account already has a subscription of this kind. */
  insert(subscription: Subscription): Promise<boolean>;
  /** Compare-and-set on `revision`: false when someone else changed it first. */
  replace(next: Subscription, expectedRevision: number): Promise<boolean>;
  /** Active subscriptions whose period ended at or before `now`. */
  dueAt(now: Date, limit: number): Promise<Subscription[]>;
}

/**
 * Sends what a subscription's outbox holds (its `pendingEvents`, stored by insert/replace in
 * the same write as the change): the plan history first, then billing.subscription.v1. The
 * common OutboxRelay; it also re-sends periodically whatever a crash or a Kafka outage left.
 */
export interface ChangeOutbox {
  /** Never throws; false = left for the relay's next run. */
  publishPending(subscriptionId: string): Promise<boolean>;
}

/** Every change ever sent, for invoices ("which plan was in force in that month"). */
export interface ChangeHistory {
  /** Idempotent on the record id. */
  record(change: SubscriptionChangeRecord): Promise<void>;
  /** The latest change of (account, kind) that took effect before `before`. */
  latestBefore(accountId: string, kind: Kind, before: Date): Promise<SubscriptionChangeRecord | null>;
  /** Changes that started a plan period in [from, to). */
  periodsStartedIn(accountId: string, kind: Kind, from: Date, to: Date): Promise<SubscriptionChangeRecord[]>;
}

/**
 * Accounts billing heard of from auth (auth.user.v1 REGISTERED). Billing changes plans only
 * for these, so a made-up or mistyped account id cannot get orders or subscriptions.
 */
export interface KnownAccounts {
  /** Idempotent: a re-delivered REGISTERED keeps the first registration time. */
  remember(accountId: string, registeredAt: Date): Promise<void>;
  has(accountId: string): Promise<boolean>;
}
