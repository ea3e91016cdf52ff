import type { Logger } from 'pino';
import { ConflictError, FailedPreconditionError, InternalError, NotFoundError, type Clock } from '@ipdata/common';
import { KINDS, addInterval, comparePlans, isFree, type Kind, type Plan } from '../plans/plan.js';
import type { PlanCatalogue } from '../plans/plan-catalogue.js';
import type { Order } from '../payments/order.js';
import type { ReturnUrlPolicy } from '../payments/return-url.js';
import { newId } from '../shared/ids.js';
import { INPUT_LIMITS, requireAccountId, requireAtMost, requireBounded } from '../shared/input-limits.js';
import type { ChangeOutbox, KnownAccounts, SubscriptionRepository } from './subscription.ports.js';
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
 * SubscriptionChanged; the common OutboxRelay re-sends whatever a crash or an outage left behind.
 */
export class SubscriptionService {
  constructor(
    private readonly deps: {
      repository: SubscriptionRepository;
      accounts: KnownAccounts;
      outbox: ChangeOutbox;
      catalogue: PlanCatalogue;
      orders: OrderCreator;
      returnUrls: ReturnUrlPolicy;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** auth.user.v1 REGISTERED: billing now knows the account and gives it its FREE plans. Idempotent. */
  async registerAccount(accountId: string): Promise<void> {
    requireAccountId(accountId);
    await this.deps.accounts.remember(accountId, this.deps.clock.now());
    await this.grantFreePlans(accountId);
  }

  /** FREE API access (and FREE download if the catalogue has it). Idempotent. */
  async grantFreePlans(accountId: string, kinds: readonly Kind[] = KINDS): Promise<void> {
    requireAccountId(accountId);
    for (const kind of kinds) {
      const free = this.deps.catalogue.freePlan(kind);
      if (!free || (await this.deps.repository.find(accountId, kind))) continue;
      const now = this.deps.clock.now();
      const created = this.newSubscription(accountId, free, now);
      if (await this.deps.repository.insert(created)) await this.flush(created);
    }
  }

  /** Reads never create state, so an account auth announced a moment ago already sees FREE. */
  async currentPlans(accountId: string): Promise<CurrentPlanView[]> {
    requireAccountId(accountId);
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
    requireAccountId(accountId);
    requireBounded('plan_id', planId, INPUT_LIMITS.planId);
    requireAtMost('return_url', returnUrl, INPUT_LIMITS.url);
    const plan = this.deps.catalogue.get(planId);
    if (!plan.selfCheckout) {
      throw new FailedPreconditionError(`Please contact sales to subscribe to ${plan.name}`, {
        reason: 'contact_sales',
        details: { planId },
      });
    }
    // The return URL matters only for a paid plan's checkout; FREE applies at once.
    if (!isFree(plan)) this.deps.returnUrls.check(returnUrl);
    await this.requireKnownAccount(accountId);
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
    return { order: await this.deps.orders.createOrder(accountId, plan, returnUrl), subscription: null };
  }

  /** A paid order: the plan applies now with a fresh period from payment time. Idempotent per order. */
  async applyPaidOrder(order: Order): Promise<void> {
    const plan = this.deps.catalogue.get(order.planId);
    // The period starts when the payment was taken, even if this runs again later (a retry).
    const now = order.paidAt ?? this.deps.clock.now();
    let subscription = await this.deps.repository.find(order.accountId, order.kind);
    if (!subscription) {
      // VIP has no FREE plan; or the account's FREE plans are not written yet (registerAccount crashed halfway).
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
    requireAccountId(accountId);
    requireBounded('plan_id', planId, INPUT_LIMITS.planId);
    const target = this.deps.catalogue.get(planId);
    await this.requireKnownAccount(accountId);
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
    requireAccountId(accountId);
    await this.requireKnownAccount(accountId);
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

  /**
   * Plans change only for accounts auth announced. Accounts registered before billing kept
   * that record are known by the FREE subscription their registration created.
   */
  private async requireKnownAccount(accountId: string): Promise<void> {
    if (await this.deps.accounts.has(accountId)) return;
    if ((await this.deps.repository.listByAccount(accountId)).length > 0) return;
    throw new NotFoundError(`account not found: ${accountId}`, { reason: 'account_not_found' });
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

  /** Sends the outbox now (history, then Kafka); a failure leaves it to the relay's next run. */
  private async flush(subscription: Subscription): Promise<void> {
    if (subscription.pendingEvents.length === 0) return;
    if (!(await this.deps.outbox.publishPending(subscription.id))) {
      this.deps.logger.warn({ subscriptionId: subscription.id }, 'subscription change not sent yet, the outbox relay will retry');
    }
  }
}

function noPaidPlan(kind: Kind): FailedPreconditionError {
  return new FailedPreconditionError(`no paid ${kind.toLowerCase()} plan to change`, { reason: 'no_paid_plan' });
}
