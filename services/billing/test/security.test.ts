import { randomUUID } from 'node:crypto';
import { OrderStatus } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, MongoConnection, NotFoundError } from '@ipdata/common';
import { BillingHarness, RETURN_URL, logger, pressCheckoutButton } from './fixtures/billing-harness.js';

const API = SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS;

/**
 * Issue 10 findings against billing: plans for made-up accounts, oversized input stored,
 * open redirect at the sandbox checkout, sandbox servers on every interface.
 */
describe('billing security: known accounts, input limits, return URLs, bound interfaces', () => {
  const harness = new BillingHarness();

  beforeAll(() => harness.start(), 90_000);
  afterAll(() => harness.stop());

  const ordersOf = async (accountId: string) => (await harness.api.listOrders({ accountId })).orders;

  it('refuses Subscribe, ScheduleDowngrade and CancelSubscription for an account auth never announced', async () => {
    const madeUp = randomUUID();
    const subscribe = harness.api.subscribe(madeUp, 'api-standard-monthly');
    await expect(subscribe).rejects.toBeInstanceOf(NotFoundError);
    await expect(subscribe).rejects.toThrow(/account not found/);
    await expect(harness.api.subscribe(madeUp, 'vip-yearly')).rejects.toThrow(/account not found/);
    await expect(harness.api.subscribe(madeUp, 'api-free')).rejects.toThrow(/account not found/);
    await expect(harness.api.cancelSubscription(madeUp, API)).rejects.toThrow(/account not found/);
    await expect(harness.api.scheduleDowngrade(madeUp, 'api-free')).rejects.toThrow(/account not found/);
    expect(await ordersOf(madeUp)).toEqual([]);
    expect(await harness.service.subscriptionRepository.listByAccount(madeUp)).toEqual([]);

    // The same calls work once auth announced the account: the refusal came from the registry alone.
    await harness.register(madeUp);
    await harness.waitForChanges(madeUp, 2);
    const { order } = await harness.api.subscribe(madeUp, 'api-standard-monthly');
    expect(order?.status).toBe(OrderStatus.ORDER_STATUS_PENDING);
  });

  it('refuses malformed and oversized ids before doing anything (INVALID_ARGUMENT)', async () => {
    const huge = 'a'.repeat(100 * 1024);
    for (const accountId of [huge, 'acct-1', randomUUID().toUpperCase(), '']) {
      const subscribe = harness.api.subscribe(accountId, 'api-standard-monthly');
      await expect(subscribe).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(subscribe).rejects.toThrow(/account_id/);
    }
    await expect(harness.api.subscribe(huge, 'api-standard-monthly')).rejects.toThrow(/longer than 36 characters/);
    await expect(harness.api.getCurrentPlans(huge)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(harness.api.listOrders({ accountId: huge })).rejects.toBeInstanceOf(InvalidArgumentError);

    const account = await harness.newAccount();
    await expect(harness.api.subscribe(account, 'p'.repeat(65))).rejects.toThrow(/plan_id is longer than 64/);
    await expect(harness.api.getOrder(account, `ord_${'x'.repeat(100 * 1024)}`)).rejects.toThrow(/order_id is longer than 64/);
    await expect(harness.api.getInvoice(account, 'i'.repeat(65))).rejects.toThrow(/invoice_id is longer than 64/);
    await expect(harness.api.listInvoices({ accountId: account, pageToken: 't'.repeat(65) })).rejects.toThrow(
      /page_token is longer than 64/,
    );
    expect(await ordersOf(account)).toEqual([]);
  });

  it('refuses a return_url on another origin, or longer than 2,048 characters, when the order is created', async () => {
    const account = await harness.newAccount();
    for (const returnUrl of [
      'https://evil.example/billing/return',
      'https://app.example.test.evil.example/return',
      'https://app.example.test@evil.example/return',
      'javascript:alert(1)',
      `https://app.example.test/${'a'.repeat(2048)}`,
    ]) {
      const subscribe = harness.api.subscribe(account, 'api-standard-monthly', returnUrl);
      await expect(subscribe, returnUrl.slice(0, 60)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(subscribe).rejects.toThrow(/return_url/);
    }
    // 2 MB: refused (by the gRPC receive limit or by the field limit), never stored.
    await expect(
      harness.api.subscribe(account, 'api-standard-monthly', `${RETURN_URL}?${'x'.repeat(2 * 1024 * 1024)}`),
    ).rejects.toThrow();
    expect(await ordersOf(account)).toEqual([]);

    const { order } = await harness.api.subscribe(account, 'api-standard-monthly', 'http://127.0.0.1:8082/billing?tab=api');
    expect(order?.returnUrl).toBe('http://127.0.0.1:8082/billing?tab=api');
  });

  it('never redirects off the allowed origins, even for a stored checkout session with a foreign return URL', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-standard-monthly');
    const providerRef = order!.providerRef;
    // A session stored before the allow-list existed (or by a bug) names a phishing page.
    const mongo = MongoConnection.fromConfig({ url: harness.mongoUrl }, logger);
    await mongo.start();
    try {
      const updated = await mongo.connection
        .collection('sandbox_checkouts')
        .updateOne({ _id: providerRef } as never, { $set: { returnUrl: 'https://evil.example/phish' } });
      expect(updated.modifiedCount).toBe(1);
    } finally {
      await mongo.shutdown();
    }

    const { answer } = await pressCheckoutButton(order!.checkoutUrl, 'pay');
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Payment received');
    // The payment itself went through: only the redirect was withheld.
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PAID);
  });

  it('pays once for ten concurrent Pay clicks on one checkout', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-standard-monthly');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${order!.checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, ...Array<number>(9).fill(409)]);
    const callbacks = harness.callbacks.filter((callback) => callback.body.toString('utf8').includes(order!.providerRef));
    expect(callbacks).toHaveLength(1);
  });

  it('listens with the payment webhook and the sandbox checkout on loopback only (default host)', () => {
    expect(harness.service.hosts()).toEqual({ webhook: '127.0.0.1', checkout: '127.0.0.1' });
  });
});
