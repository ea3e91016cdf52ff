import { waitFor } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone } from '../../auth/test/fixtures/auth-harness.js';
import { addInterval } from '../../billing/src/plans/plan.js';
import { BffCnHarness } from './fixtures/bff-cn-harness.js';

// Face A's VIP through billing's real Subscribe and its sandbox checkout (the provider's hosted
// page and signed webhook, in the billing process): plans, an order, paying it, the VIP state.

const h = new BffCnHarness({}, { billing: true });
let token = '';

interface OrderView {
  order_id: string;
  plan_id: string;
  state: string;
  amount: string;
  currency: string;
  checkout_url: string | null;
  paid_at: string | null;
}
interface VipView {
  is_vip: boolean;
  plan_id: string | null;
  expires_at: string | null;
  renews: boolean;
}

beforeAll(async () => {
  await h.start();
  const phone = randomPhone();
  await h.call('/v1/send_sms_code', { form: { phone, type: 'register' } });
  const registered = await h.call('/v1/user_regis', {
    form: { phone, code: h.auth.sms.lastCode(phone), password: 'secret-1234' },
  });
  const data = registered.body.data as { token: string; user: { id: string } };
  token = data.token;
  // Billing learns the account from auth.user.v1 (REGISTERED) and gives it its FREE plans (API and
  // download) before it can sell it VIP.
  await h.billing?.waitForChanges(data.user.id, 2);
}, 180_000);
afterAll(async () => {
  await h.stop();
});

const ok = async <T>(path: string, options: Parameters<BffCnHarness['call']>[1] = {}) => {
  const answer = await h.call(path, options);
  expect([answer.status, answer.body.code], answer.text).toEqual([200, 200]);
  return answer.body.data as T;
};

describe('VIP', () => {
  it('vip_plan_list lists the VIP plans of billing’s catalogue with their prices', async () => {
    const { plans } = await ok<{ plans: { id: string; interval: string; price: string; currency: string; name: string }[] }>(
      '/v1/vip_plan_list',
    );
    expect(plans.map((plan) => plan.id).sort()).toEqual(['vip-monthly', 'vip-yearly']);
    expect(plans.find((plan) => plan.id === 'vip-monthly')).toMatchObject({
      interval: 'monthly',
      price: '15.00',
      currency: 'USD',
      name: 'VIP 月度会员',
    });
  });

  it('a visitor without login gets 506 on the account calls', async () => {
    for (const path of ['/v1/vip_info', '/v1/vip_order_add', '/v1/vip_order_get']) {
      expect((await h.call(path, { form: { plan_id: 'vip-monthly', order_id: 'x' } })).body.code, path).toBe(506);
    }
  });

  it('orders VIP, pays at the sandbox checkout, and is VIP afterwards', async () => {
    expect(await ok<VipView>('/v1/vip_info', { headers: { token } })).toMatchObject({ is_vip: false, plan_id: null });
    const order = await ok<OrderView>('/v1/vip_order_add', { headers: { token }, form: { plan_id: 'vip-monthly' } });
    expect(order).toMatchObject({ plan_id: 'vip-monthly', state: 'pending', amount: '15.00', currency: 'USD', paid_at: null });
    expect(order.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);

    // The buyer presses Pay on the provider's page; it sends them back to face A's VIP page.
    const paid = await fetch(`${order.checkout_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:8081/vip');
    expect(back.searchParams.get('order_id')).toBe(order.order_id);

    const settled = await waitFor(
      async () => {
        const data = await ok<{ order: OrderView; vip: VipView }>('/v1/vip_order_get', {
          headers: { token },
          form: { order_id: order.order_id },
        });
        return data.order.state === 'paid' && data.vip.is_vip ? data : undefined;
      },
      { timeoutMs: 30_000, what: 'the paid order and the VIP state' },
    );
    expect(settled.order.checkout_url).toBeNull();
    expect(settled.vip).toMatchObject({ is_vip: true, plan_id: 'vip-monthly', renews: true });
    // One calendar month from the payment, on billing's clock (read back from the order).
    expect(settled.order.paid_at).not.toBeNull();
    expect(settled.vip.expires_at).toBe(addInterval(new Date(settled.order.paid_at ?? 0), 'MONTHLY').toISOString());

    // The same plan again is refused in the page's words.
    const again = await h.call('/v1/vip_order_add', { headers: { token }, form: { plan_id: 'vip-monthly' } });
    expect(again.body).toMatchObject({ code: 400, msg: '您已是该套餐的会员' });
  });

  it('refuses unknown plans and other plan kinds, and answers 404 for an order that is not the caller’s', async () => {
    for (const plan_id of ['vip-weekly', 'api-standard-monthly', 'VIP MONTHLY']) {
      const answer = await h.call('/v1/vip_order_add', { headers: { token }, form: { plan_id } });
      expect(answer.body, plan_id).toMatchObject({ code: 400, msg: '请选择正确的套餐' });
    }
    const missing = await h.call('/v1/vip_order_get', { headers: { token }, form: { order_id: 'no-such-order' } });
    expect(missing.body).toMatchObject({ code: 404, msg: '订单不存在' });
  });
});
