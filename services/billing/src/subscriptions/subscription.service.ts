import type { Logger } from 'pino';
import { ConflictError, FailedPreconditionError, InternalError, InvalidArgumentError } from '@ipdata/common';
import { KINDS, addInterval, comparePlans, isFree, type Kind, type Plan } from '../plans/plan.js';
import type { PlanCatalogue } from '../plans/plan-catalogue.js';
import type { Order } from '../payments/order.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import type { ChangeHistory, SubscriptionEventPublisher, SubscriptionRepository } from './subscription.ports.js';
import { addChange, withPlan, type Subscription } from './subscription.js';

/** Creates the order for a paid plan (PaymentService). */
export interface OrderCreator {
  createOrder(accountId: string, plan: Plan, returnUrl: string): Promise<Order>;
}

export interface CurrentPlanView {
  kind: Kind;
  plan: Plan;
  subscription: Subscription | null;
}

export interface SubscribeResult {
  order: Order | null;
  subscription: Subscription | null;
}

type Mutation = (current: Subscription) => Subscription | null;

const MAX_CAS_ATTEMPTS = 8;

/**
 * Subscriptions per (account, kind): FREE at registration, new plans and upgrades after
 * payment (period restarts at payment time, no proration), downgrades and cancellations at
 * period end, renewals. Every change goes into the subscription's outbox and is then sent as
 * SubscriptionChanged; flushPending() re-sends whatever a crash left behind.
 */
export class SubscriptionService {
  constructor(
    private readonly deps: {
      repository: SubscriptionRepository;
      history: ChangeHistory;
      publisher: SubscriptionEventPublisher;
      catalogue: PlanCatalogue;
      orders: OrderCreator;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** auth.user.v1 REGISTERED: FREE API access (and FREE download if the catalogue has it). Idempotent. */
  async grantFreePlans(accountId: string, kinds: readonly Kind[] = KINDS): Promise<void> {
    requireAccount(accountId);
    for (const kind of kinds) {
      const free = this.deps.catalogue.freePlan(kind);
      if (!free || (await this.deps.repository.find(accountId, kind))) continue;
      const now = this.deps.clock.now();
      const created = this.newSubscription(accountId, free, now);
      if (await this.deps.repository.insert(created)) await this.flush(created);
    }
  }

  async currentPlans(accountId: string): Promise<CurrentPlanView[]> {
    requireAccount(accountId);
    const subscriptions = await this.deps.repository.listByAccount(accountId);
    const views: CurrentPlanView[] = [];
    for (const kind of KINDS) {
      const subscription = subscriptions.find((candidate) => candidate.kind === kind) ?? null;
      if (subscription && subscription.status === 'ACTIVE') {
        views.push({ kind, plan: this.deps.catalogue.get(subscription.planId), subscription });
        continue;
      }
      const free = this.deps.catalogue.freePlan(kind);
      if (free) views.push({ kind, plan: free, subscription: null });
    }
    return views;
  }

  async subscribe(accountId: string, planId: string, returnUrl: string): Promise<SubscribeResult> {
    requireAccount(accountId);
    if (planId.trim() === '') throw new InvalidArgumentError('plan_id is required', { details: { field: 'plan_id' } });
    const plan = this.deps.catalogue.get(planId);
    if (!plan.selfCheckout) {
      throw new FailedPreconditionError(`Please contact sales to subscribe to ${plan.name}`, {
        reason: 'contact_sales',
        details: { planId },
      });
    }
    const current = await this.deps.repository.find(accountId, plan.kind);
    const active = current?.status === 'ACTIVE' ? current : null;
    if (active) {
      const currentPlan = this.deps.catalogue.get(active.planId);
      const order = comparePlans(plan, currentPlan);
      if (order === 0 && plan.id === currentPlan.id) {
        throw new ConflictError(`already subscribed to ${plan.id}`, { reason: 'current_plan', details: { planId } });
      }
      if (order < 0) {
        throw new FailedPreconditionError(`${plan.id} is lower than ${currentPlan.id}: downgrades take effect at period end`, {
          reason: 'use_schedule_downgrade',
          details: { planId, currentPlanId: currentPlan.id },
        });
      }
    }
    if (isFree(plan)) {
      // Only reachable without an active subscription of this kind (FREE is the lowest plan).
      await this.grantFreePlans(accountId, [plan.kind]);
      return { order: null, subscription: await this.deps.repository.find(accountId, plan.kind) };
    }
    requireReturnUrl(returnUrl);
    return { order: await this.deps.orders.createOrder(accountId, plan, returnUrl), subscription: null };
  }

  /** A paid order: the plan applies now with a fresh period from payment time. Idempotent per order. */
  async applyPaidOrder(order: Order): Promise<void> {
    const plan = this.deps.catalogue.get(order.planId);
    // The period starts when the payment was taken, even if this runs again later (a retry).
    const now = order.paidAt ?? this.deps.clock.now();
    let subscription = await this.deps.repository.find(order.accountId, order.kind);
    if (!subscription) {
      // Paying before the REGISTERED event arrived (or VIP, which has no FREE plan).
      const created = this.newSubscription(order.accountId, plan, now, order.id);
      if (await this.deps.repository.insert(created)) return this.flush(created);
      subscription = await this.deps.repository.find(order.accountId, order.kind);
    }
    if (!subscription) throw new InternalError(`subscription for ${order.accountId}/${order.kind} vanished`);
    await this.mutate(subscription, (current) => {
      if (current.appliedOrderIds.includes(order.id)) return null;
      const currentPlan = this.deps.catalogue.find(current.planId);
      const change =
        current.status !== 'ACTIVE'
          ? 'CREATED'
          : current.planId === plan.id
            ? 'RENEWED'
            : currentPlan && comparePlans(plan, currentPlan) < 0
              ? 'DOWNGRADED'
              : 'UPGRADED';
      const next = withPlan(current, plan, change, {
        periodStart: now,
        periodEnd: addInterval(now, plan.interval),
        now,
        eventId: newId('chg'),
        orderId: order.id,
      });
      return { ...next, appliedOrderIds: [...current.appliedOrderIds, order.id].slice(-50) };
    });
  }

  async scheduleDowngrade(accountId: string, planId: string): Promise<Subscription> {
    requireAccount(accountId);
    const target = this.deps.catalogue.get(planId);
    const subscription = await this.requirePaid(accountId, target.kind);
    return this.mutate(subscription, (current) => {
      const currentPlan = this.deps.catalogue.get(current.planId);
      if (current.status !== 'ACTIVE' || isFree(currentPlan)) throw noPaidPlan(target.kind);
      if (comparePlans(target, currentPlan) >= 0) {
        throw new FailedPreconditionError(`${target.id} is not lower than ${currentPlan.id}: subscribe to upgrade`, {
          reason: 'not_a_downgrade',
          details: { planId, currentPlanId: currentPlan.id },
        });
      }
      const now = this.deps.clock.now();
      const next = {
        ...current,
        scheduled: { type: 'DOWNGRADE' as const, planId },
        updatedAt: now,
        revision: current.revision + 1,
      };
      return addChange(next, currentPlan, 'DOWNGRADE_SCHEDULED', { now, eventId: newId('chg') });
    });
  }

  async cancel(accountId: string, kind: Kind): Promise<Subscription> {
    requireAccount(accountId);
    const subscription = await this.requirePaid(accountId, kind);
    return this.mutate(subscription, (current) => {
      const currentPlan = this.deps.catalogue.get(current.planId);
      if (current.status !== 'ACTIVE' || isFree(currentPlan)) throw noPaidPlan(kind);
      if (current.scheduled?.type === 'CANCEL') return null;
      const now = this.deps.clock.now();
      const next = { ...current, scheduled: { type: 'CANCEL' as const }, updatedAt: now, revision: current.revision + 1 };
      return addChange(next, currentPlan, 'CANCEL_SCHEDULED', { now, eventId: newId('chg') });
    });
  }

  /**
   * Applies everything due by now: scheduled downgrades and cancellations, otherwise renewals
   * (the sandbox keeps no card, so a renewal is recorded and invoiced, not charged). A clock
   * that jumped several periods applies one change per elapsed period.
   */
  async applyDueChanges(): Promise<number> {
    let applied = 0;
    // A subscription that cannot be moved on (e.g. its plan left the catalogue) is logged and
    // skipped, so it neither blocks the others nor loops forever.
    const failed = new Set<string>();
    for (;;) {
      const now = this.deps.clock.now();
      const due = (await this.deps.repository.dueAt(now, 100 + failed.size)).filter((sub) => !failed.has(sub.id));
      if (due.length === 0) return applied;
      for (const subscription of due) {
        try {
          await this.mutate(subscription, (current) => this.periodEnd(current, now));
          applied++;
        } catch (error) {
          failed.add(subscription.id);
          this.deps.logger.error({ err: error, subscriptionId: subscription.id }, 'cannot apply period end');
        }
      }
    }
  }

  /** Sends changes a crash or a Kafka outage left in outboxes. */
  async flushPending(): Promise<number> {
    const pending = await this.deps.repository.withPendingEvents(100);
    for (const subscription of pending) await this.flush(subscription);
    return pending.length;
  }

  private periodEnd(current: Subscription, now: Date): Subscription | null {
    let next = current;
    while (next.status === 'ACTIVE' && next.periodEnd && next.periodEnd.getTime() <= now.getTime()) {
      const start = next.periodEnd;
      const scheduled = next.scheduled;
      const free = this.deps.catalogue.freePlan(next.kind);
      if (scheduled?.type === 'CANCEL' && !free) {
        const ended = { ...next, status: 'CANCELED' as const, scheduled: null, updatedAt: now, revision: next.revision + 1 };
        next = addChange(ended, this.deps.catalogue.get(next.planId), 'CANCELED', { now, eventId: newId('chg') });
      } else if (scheduled?.type === 'CANCEL' && free) {
        next = withPlan(next, free, 'CANCELED', { periodStart: start, periodEnd: null, now, eventId: newId('chg') });
      } else {
        const plan = this.deps.catalogue.get(scheduled?.type === 'DOWNGRADE' ? scheduled.planId : next.planId);
        const periodEnd = isFree(plan) ? null : addInterval(start, plan.interval);
        const change = scheduled?.type === 'DOWNGRADE' ? 'DOWNGRADED' : 'RENEWED';
        next = withPlan(next, plan, change, { periodStart: start, periodEnd, now, eventId: newId('chg') });
      }
    }
    return next === current ? null : next;
  }

  private async requirePaid(accountId: string, kind: Kind): Promise<Subscription> {
    const subscription = await this.deps.repository.find(accountId, kind);
    if (!subscription || subscription.status !== 'ACTIVE') throw noPaidPlan(kind);
    return subscription;
  }

  private newSubscription(accountId: string, plan: Plan, now: Date, orderId?: string): Subscription {
    const base: Subscription = {
      id: newId('sub'),
      accountId,
      kind: plan.kind,
      planId: plan.id,
      tier: plan.tier,
      interval: plan.interval,
      status: 'ACTIVE',
      periodStart: now,
      periodEnd: isFree(plan) ? null : addInterval(now, plan.interval),
      scheduled: null,
      appliedOrderIds: orderId ? [orderId] : [],
      createdAt: now,
      updatedAt: now,
      revision: 1,
      pendingEvents: [],
    };
    return addChange(base, plan, 'CREATED', { now, eventId: newId('chg'), orderId: orderId ?? null });
  }

  /** Read-modify-write with compare-and-set on the revision; the mutation may return null (no change). */
  private async mutate(start: Subscription, mutation: Mutation): Promise<Subscription> {
    let current = start;
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const next = mutation(current);
      if (!next) return current;
      if (await this.deps.repository.replace(next, current.revision)) {
        await this.flush(next);
        return next;
      }
      const reread = await this.deps.repository.find(current.accountId, current.kind);
      if (!reread) throw new InternalError(`subscription ${current.id} vanished`);
      current = reread;
    }
    throw new ConflictError('the subscription is being changed concurrently, try again', { reason: 'concurrent_change' });
  }

  /** History first, then Kafka, then the outbox is emptied; a failure leaves it for flushPending(). */
  private async flush(subscription: Subscription): Promise<void> {
    if (subscription.pendingEvents.length === 0) return;
    try {
      for (const change of subscription.pendingEvents) {
        await this.deps.history.record(change);
        await this.deps.publisher.publish(change);
      }
      await this.deps.repository.clearPendingEvents(subscription.id, subscription.revision);
    } catch (error) {
      this.deps.logger.error({ err: error, subscriptionId: subscription.id }, 'subscription change not sent yet, will retry');
    }
  }
}

function requireAccount(accountId: string): void {
  if (accountId.trim() === '') throw new InvalidArgumentError('account_id is required');
}

function requireReturnUrl(returnUrl: string): void {
  try {
    if (['http:', 'https:'].includes(new URL(returnUrl).protocol)) return;
  } catch {
    // fall through
  }
  throw new InvalidArgumentError('return_url must be an http(s) URL', { details: { field: 'return_url' } });
}

function noPaidPlan(kind: Kind): FailedPreconditionError {
  return new FailedPreconditionError(`no paid ${kind.toLowerCase()} plan to change`, { reason: 'no_paid_plan' });
}
