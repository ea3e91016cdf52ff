import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import { DEFAULT_CATALOGUE_FILE } from '../config.js';
import type { Order } from '../payments/order.js';
import { ReturnUrlPolicy } from '../payments/return-url.js';
import type { Kind } from '../plans/plan.js';
import { PlanCatalogue } from '../plans/plan-catalogue.js';
import type { SubscriptionRepository } from './subscription.ports.js';
import type { Subscription, SubscriptionChangeRecord } from './subscription.js';
import { SubscriptionService } from './subscription.service.js';

const logger = pino({ level: 'silent' });
const catalogue = PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE);
const ACCOUNT = '0f7a2b1c-0000-4000-8000-000000000001';
const at = (iso: string) => new Date(iso);

/** Subscriptions in memory with the Mongo store's compare-and-set; the outbox moves changes into `sent`. */
class MemorySubscriptions implements SubscriptionRepository {
  readonly byKey = new Map<string, Subscription>();
  readonly sent: SubscriptionChangeRecord[] = [];
  async find(accountId: string, kind: Kind) {
    return this.byKey.get(`${accountId}|${kind}`) ?? null;
  }
  async listByAccount(accountId: string) {
    return [...this.byKey.values()].filter((sub) => sub.accountId === accountId);
  }
  async insert(subscription: Subscription) {
    const key = `${subscription.accountId}|${subscription.kind}`;
    if (this.byKey.has(key)) return false;
    this.byKey.set(key, subscription);
    return true;
  }
  async replace(next: Subscription, expectedRevision: number) {
    const key = `${next.accountId}|${next.kind}`;
    if (this.byKey.get(key)?.revision !== expectedRevision) return false;
    this.byKey.set(key, next);
    return true;
  }
  async dueAt(now: Date, limit: number) {
    return [...this.byKey.values()]
      .filter((sub) => sub.status === 'ACTIVE' && sub.periodEnd !== null && sub.periodEnd.getTime() <= now.getTime())
      .slice(0, limit);
  }
  async publishPending(subscriptionId: string) {
    for (const [key, sub] of this.byKey) {
      if (sub.id !== subscriptionId) continue;
      this.sent.push(...sub.pendingEvents);
      this.byKey.set(key, { ...sub, pendingEvents: [] });
    }
    return true;
  }
}

function setup(start: string) {
  const clock = new ManualClock(at(start));
  const store = new MemorySubscriptions();
  const service = new SubscriptionService({
    repository: store,
    accounts: { remember: async () => undefined, has: async () => true },
    outbox: store,
    catalogue,
    orders: {
      createOrder: async () => {
        throw new Error('no checkout in this test');
      },
    },
    returnUrls: new ReturnUrlPolicy(['https://app.example.test']),
    clock,
    logger,
  });
  /** The order of a paid checkout of `planId` at the clock's time. */
  const pay = (planId: string) => {
    const plan = catalogue.get(planId);
    const order: Order = {
      id: `ord_${planId}_${clock.now().getTime()}`,
      accountId: ACCOUNT,
      kind: plan.kind,
      planId,
      amountMinor: plan.priceMinor,
      currency: plan.currency,
      status: 'PAID',
      provider: 'sandbox',
      providerRef: 'ref',
      checkoutUrl: '',
      returnUrl: '',
      createdAt: clock.now(),
      expiresAt: clock.now(),
      paidAt: clock.now(),
    };
    return service.applyPaidOrder(order);
  };
  const period = async () => {
    const sub = await store.find(ACCOUNT, 'API_ACCESS');
    return [sub?.planId, sub?.periodStart.toISOString(), sub?.periodEnd?.toISOString() ?? null];
  };
  return { clock, store, service, pay, period };
}

describe('SubscriptionService: plan periods over short months, leap days and the year end', () => {
  it('a monthly plan paid on 31 January ends on 28 February 2027 and renews there, not a millisecond earlier', async () => {
    const { clock, service, pay, period } = setup('2027-01-31T10:00:00.000Z');
    await pay('api-standard-monthly');
    expect(await period()).toEqual(['api-standard-monthly', '2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z']);

    clock.set(at('2027-02-28T09:59:59.999Z'));
    expect(await service.applyDueChanges()).toBe(0);
    clock.set(at('2027-02-28T10:00:00.000Z'));
    expect(await service.applyDueChanges()).toBe(1);
    expect(await period()).toEqual(['api-standard-monthly', '2027-02-28T10:00:00.000Z', '2027-03-28T10:00:00.000Z']);
  });

  it('in a leap year the period paid on 31 January ends on 29 February', async () => {
    const { clock, service, pay, period, store } = setup('2028-01-31T23:30:00.000Z');
    await pay('api-standard-monthly');
    expect(await period()).toEqual(['api-standard-monthly', '2028-01-31T23:30:00.000Z', '2028-02-29T23:30:00.000Z']);
    clock.set(at('2028-02-29T23:30:00.000Z'));
    expect(await service.applyDueChanges()).toBe(1);
    expect(store.sent.map((change) => [change.change, change.periodStart.toISOString()])).toEqual([
      ['CREATED', '2028-01-31T23:30:00.000Z'],
      ['RENEWED', '2028-02-29T23:30:00.000Z'],
    ]);
  });

  it('a monthly plan paid in the last millisecond of the year ends on 31 January; a clock past two ends renews twice', async () => {
    const { clock, service, pay, period, store } = setup('2026-12-31T23:59:59.999Z');
    await pay('api-standard-monthly');
    expect(await period()).toEqual(['api-standard-monthly', '2026-12-31T23:59:59.999Z', '2027-01-31T23:59:59.999Z']);
    clock.set(at('2027-03-01T00:00:00.000Z'));
    expect(await service.applyDueChanges()).toBe(1);
    expect(store.sent.filter((change) => change.change === 'RENEWED').map((change) => change.periodStart.toISOString())).toEqual([
      '2027-01-31T23:59:59.999Z',
      '2027-02-28T23:59:59.999Z',
    ]);
    expect(await period()).toEqual(['api-standard-monthly', '2027-02-28T23:59:59.999Z', '2027-03-28T23:59:59.999Z']);
  });

  it('a yearly plan paid on 29 February 2028 ends on 28 February 2029; one paid on 1 January ends on 1 January', async () => {
    const leap = setup('2028-02-29T08:00:00.000Z');
    await leap.pay('api-standard-yearly');
    expect(await leap.period()).toEqual(['api-standard-yearly', '2028-02-29T08:00:00.000Z', '2029-02-28T08:00:00.000Z']);

    const newYear = setup('2027-01-01T00:00:00.000Z');
    await newYear.pay('api-standard-yearly');
    expect(await newYear.period()).toEqual(['api-standard-yearly', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']);
    newYear.clock.set(at('2027-12-31T23:59:59.999Z'));
    expect(await newYear.service.applyDueChanges()).toBe(0);
    newYear.clock.advance(1);
    expect(await newYear.service.applyDueChanges()).toBe(1);
    expect(await newYear.period()).toEqual(['api-standard-yearly', '2028-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z']);
  });
});
