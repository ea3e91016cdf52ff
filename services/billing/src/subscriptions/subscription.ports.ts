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
  withPendingEvents(limit: number): Promise<Subscription[]>;
  /** Empties the outbox if the revision is still the one whose events were sent. */
  clearPendingEvents(id: string, revision: number): Promise<void>;
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

/** Sends SubscriptionChanged (billing.subscription.v1). */
export interface SubscriptionEventPublisher {
  publish(change: SubscriptionChangeRecord): Promise<void>;
}
