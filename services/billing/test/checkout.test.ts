import { randomUUID } from 'node:crypto';
import { OrderStatus, ScheduledChange } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, FailedPreconditionError, NotFoundError } from '@ipdata/common';
import { uniqueName } from '@ipdata/common/testing';
import { signSandboxPayload } from '../src/adapters/payments/sandbox-signature.js';
import { BillingHarness, RETURN_URL, SECRET, pressCheckoutButton } from './fixtures/billing-harness.js';

const API = SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS;

describe('billing: subscribe through the sandbox checkout and its signed callback', () => {
  const harness = new BillingHarness();
  const webhook = () => `http://127.0.0.1:${harness.service.ports().webhook}/webhooks/payments/sandbox`;
  const post = (body: string | Buffer, headers: Record<string, string>) =>
    fetch(webhook(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  /** A callback as the sandbox would send it, signed with `secret` at `at`. */
  const signedCallback = (order: { id: string; providerRef: string; amountMinor: number }, at: Date, secret = SECRET) => {
    const body = JSON.stringify({
      id: uniqueName('evt'),
      type: 'checkout.paid',
      provider_ref: order.providerRef,
      order_id: order.id,
      amount_minor: order.amountMinor,
      currency: 'USD',
      occurred_at: at.toISOString(),
    });
    const timestamp = Math.floor(at.getTime() / 1000);
    return {
      body,
      headers: { 'x-sandbox-timestamp': String(timestamp), 'x-sandbox-signature': signSandboxPayload(secret, timestamp, body) },
    };
  };
  const apiChanges = async (account: string) =>
    (await harness.changesFor(account))
      .filter((change) => change.kind === API)
      .map((change) => SubscriptionChange[change.change]);

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  let paidAccount = '';
  let paidOrderId = '';

  it('pays a Standard plan at the hosted checkout: order paid, plan upgraded, SubscriptionChanged sent', async () => {
    const account = await harness.newAccount();

    const { order } = await harness.api.subscribe(account, 'api-standard-monthly');
    expect(order).toMatchObject({
      status: OrderStatus.ORDER_STATUS_PENDING,
      amountMinor: 4900,
      currency: 'USD',
      provider: 'sandbox',
    });
    expect(order!.checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_[0-9a-f]{32}$/);

    const { page, answer } = await pressCheckoutButton(order!.checkoutUrl, 'pay');
    expect(page).toContain(order!.id);
    expect(page).toContain('USD 49.00');
    expect(page).toContain('Standard (API access, monthly)');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${RETURN_URL}?order_id=${order!.id}&status=paid`);

    expect(harness.callbacks).toHaveLength(1);
    expect(harness.callbacks[0]).toMatchObject({ path: '/webhooks/payments/sandbox', status: 200 });
    expect(harness.callbacks[0]!.headers['x-sandbox-signature']).toMatch(/^[0-9a-f]{64}$/);

    const { order: paid } = await harness.api.getOrder(account, order!.id);
    expect(paid).toMatchObject({ status: OrderStatus.ORDER_STATUS_PAID, paidAt: harness.clock.now() });
    const current = await harness.api.getCurrentPlans(account);
    expect(current.plans[0]?.subscription).toMatchObject({
      planId: 'api-standard-monthly',
      periodStart: harness.clock.now(),
      periodEnd: new Date('2026-02-10T12:00:00.000Z'),
      scheduledChange: ScheduledChange.SCHEDULED_CHANGE_NONE,
    });
    const changes = await harness.waitForChanges(account, 3);
    expect(changes.at(-1)).toMatchObject({
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_UPGRADED,
      planId: 'api-standard-monthly',
      limits: { lookupsPerMonth: 250_000, overagePricePer1kMinor: 50, supportLevel: 'priority' },
      periodEnd: new Date('2026-02-10T12:00:00.000Z'),
    });
    const { orders } = await harness.api.listOrders({ accountId: account });
    expect(orders.map((listed) => [listed.id, listed.status])).toEqual([[order!.id, OrderStatus.ORDER_STATUS_PAID]]);
    paidAccount = account;
    paidOrderId = order!.id;
  });

  it('answers a replayed callback (same body and signature) with 200 and changes nothing', async () => {
    const original = harness.callbacks[0]!;
    const before = await harness.api.getCurrentPlans(paidAccount);
    const replay = await post(original.body, {
      'x-sandbox-timestamp': original.headers['x-sandbox-timestamp']!,
      'x-sandbox-signature': original.headers['x-sandbox-signature']!,
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ status: 'duplicate' });

    expect(await harness.api.getCurrentPlans(paidAccount)).toEqual(before);
    const { order } = await harness.api.getOrder(paidAccount, paidOrderId);
    expect(order?.paidAt).toEqual(new Date('2026-01-10T12:00:00.000Z'));
    // A later event of the same account (same partition) proves no second UPGRADED came before it.
    await harness.api.scheduleDowngrade(paidAccount, 'api-free');
    await harness.waitForChanges(paidAccount, 4);
    expect(await apiChanges(paidAccount)).toEqual([
      'SUBSCRIPTION_CHANGE_CREATED',
      'SUBSCRIPTION_CHANGE_UPGRADED',
      'SUBSCRIPTION_CHANGE_DOWNGRADE_SCHEDULED',
    ]);
  });

  it('refuses forged callbacks with 401 and leaves the order unpaid', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-business-monthly');
    const forged = signedCallback(order!, harness.clock.now(), 'not-the-secret');
    expect((await post(forged.body, forged.headers)).status).toBe(401);

    const genuine = signedCallback(order!, harness.clock.now());
    const tampered = genuine.body.replace('"amount_minor":19900', '"amount_minor":1');
    expect(tampered).not.toBe(genuine.body);
    expect((await post(tampered, genuine.headers)).status).toBe(401);
    expect((await post(genuine.body, {})).status).toBe(401);
    expect((await post(genuine.body, { ...genuine.headers, 'x-sandbox-signature': 'zz' })).status).toBe(401);

    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PENDING);
    expect((await harness.api.getCurrentPlans(account)).plans[0]?.plan?.id).toBe('api-free');

    // Correctly signed but for another amount: refused, nothing changes.
    const wrongAmount = signedCallback({ ...order!, amountMinor: 1 }, harness.clock.now());
    const refused = await post(wrongAmount.body, wrongAmount.headers);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ reason: 'amount_mismatch' });
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PENDING);

    // The same callback correctly signed is accepted: the 401s came from the signature alone.
    const accepted = await post(genuine.body, genuine.headers);
    expect(accepted.status).toBe(200);
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PAID);
    expect((await harness.api.getCurrentPlans(account)).plans[0]?.plan?.id).toBe('api-business-monthly');
  });

  it('refuses a correctly signed callback whose timestamp is outside the 5-minute window', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-standard-yearly');
    const stale = signedCallback(order!, new Date(harness.clock.now().getTime() - 5 * 60_000 - 1_000));
    const answer = await post(stale.body, stale.headers);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ reason: 'signature_stale' });
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PENDING);

    // A captured callback replayed after the window is refused the same way.
    const fresh = signedCallback(order!, harness.clock.now());
    harness.clock.advance(5 * 60_000 + 1_000);
    expect((await post(fresh.body, fresh.headers)).status).toBe(401);
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_PENDING);
  });

  it('cancels at the checkout: order canceled, plan unchanged', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-business-yearly');
    const { answer } = await pressCheckoutButton(order!.checkoutUrl, 'cancel');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toContain('status=canceled');
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_CANCELED);
    expect((await harness.api.getCurrentPlans(account)).plans[0]?.plan?.id).toBe('api-free');
    // The page of a completed checkout cannot be paid any more.
    expect((await fetch(order!.checkoutUrl)).status).toBe(409);
  });

  it('expires an unpaid order: the checkout refuses to pay and the order reads EXPIRED', async () => {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'download-standard-monthly');
    expect(order?.expiresAt).toEqual(new Date(harness.clock.now().getTime() + 30 * 60_000));
    harness.clock.advance(30 * 60_000);
    expect((await fetch(order!.checkoutUrl)).status).toBe(410);
    const pay = await fetch(`${order!.checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(410);
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_EXPIRED);
    const sweep = await harness.service.sweeper.runOnce();
    expect(sweep.expiredOrders).toBeGreaterThanOrEqual(1);
    expect((await harness.api.getOrder(account, order!.id)).order?.status).toBe(OrderStatus.ORDER_STATUS_EXPIRED);
  });

  it('refuses self-checkout of Enterprise, a downgrade by Subscribe, the current plan and foreign orders', async () => {
    const enterprise = harness.api.subscribe(paidAccount, 'api-enterprise-monthly');
    await expect(enterprise).rejects.toBeInstanceOf(FailedPreconditionError);
    await expect(enterprise).rejects.toThrow(/contact sales/i);
    await expect(harness.api.subscribe(paidAccount, 'api-standard-monthly')).rejects.toBeInstanceOf(ConflictError);
    await expect(harness.api.subscribe(paidAccount, 'api-free')).rejects.toBeInstanceOf(FailedPreconditionError);
    await expect(harness.api.subscribe(paidAccount, 'api-gold')).rejects.toBeInstanceOf(NotFoundError);
    await expect(harness.api.getOrder(randomUUID(), paidOrderId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(harness.api.subscribe(paidAccount, 'vip-monthly', 'javascript:alert(1)')).rejects.toThrow(/return_url/);
  });
});
