import { BillingInterval, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { OrderStatus, SubscriptionStatus, type CurrentPlan, type Order, type Plan } from '@ipdata/proto/billing/v1/billing';

const INTERVALS: Readonly<Record<number, string>> = {
  [BillingInterval.BILLING_INTERVAL_MONTHLY]: 'monthly',
  [BillingInterval.BILLING_INTERVAL_YEARLY]: 'yearly',
};

const INTERVAL_NAMES: Readonly<Record<string, string>> = { monthly: '月度会员', yearly: '年度会员' };

const ORDER_STATES: Readonly<Record<number, string>> = {
  [OrderStatus.ORDER_STATUS_PENDING]: 'pending',
  [OrderStatus.ORDER_STATUS_PAID]: 'paid',
  [OrderStatus.ORDER_STATUS_CANCELED]: 'canceled',
  [OrderStatus.ORDER_STATUS_EXPIRED]: 'expired',
};

/** Minor units as a decimal text ("15.00"): amounts stay integers until shown. */
export function formatAmount(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

export function vipPlanView(plan: Plan) {
  const interval = INTERVALS[plan.interval] ?? 'unknown';
  return {
    id: plan.id,
    name: `VIP ${INTERVAL_NAMES[interval] ?? ''}`.trim(),
    interval,
    price: formatAmount(plan.priceMinor, plan.currency),
    price_minor: plan.priceMinor,
    currency: plan.currency,
    included_lookups_per_month: plan.limits?.lookupsPerMonth ?? null,
    description: plan.description,
  };
}

/** The account's VIP state: active until period_end (a canceled VIP stays active until then). */
export function vipStatusView(current: CurrentPlan | undefined, now: Date) {
  const subscription = current?.subscription;
  const isVip =
    current?.kind === SubscriptionKind.SUBSCRIPTION_KIND_VIP &&
    subscription !== undefined &&
    (subscription.status === SubscriptionStatus.SUBSCRIPTION_STATUS_ACTIVE ||
      subscription.status === SubscriptionStatus.SUBSCRIPTION_STATUS_CANCELED) &&
    (subscription.periodEnd === undefined || subscription.periodEnd > now);
  return {
    is_vip: isVip,
    plan_id: isVip ? (subscription?.planId ?? null) : null,
    expires_at: isVip ? (subscription?.periodEnd?.toISOString() ?? null) : null,
    renews: isVip && subscription?.status === SubscriptionStatus.SUBSCRIPTION_STATUS_ACTIVE,
  };
}

export function vipOrderView(order: Order) {
  return {
    order_id: order.id,
    plan_id: order.planId,
    state: ORDER_STATES[order.status] ?? 'unknown',
    amount: formatAmount(order.amountMinor, order.currency),
    currency: order.currency,
    checkout_url: order.status === OrderStatus.ORDER_STATUS_PENDING ? order.checkoutUrl : null,
    created_at: order.createdAt?.toISOString() ?? null,
    expires_at: order.expiresAt?.toISOString() ?? null,
    paid_at: order.paidAt?.toISOString() ?? null,
  };
}
