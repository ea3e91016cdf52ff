import {
  Invoice as InvoiceMessage,
  InvoiceLineKind,
  Order as OrderMessage,
  OrderStatus,
  Plan as PlanMessage,
  ScheduledChange,
  Subscription as SubscriptionMessage,
  SubscriptionStatus,
} from '@ipdata/proto/billing/v1/billing';
import type { Invoice } from '../../invoices/invoice.js';
import type { Order } from '../../payments/order.js';
import type { Plan } from '../../plans/plan.js';
import type { Subscription } from '../../subscriptions/subscription.js';
import { toProtoInterval, toProtoKind, toProtoLimits, toProtoTier } from '../proto-enums.js';

export function planMessage(plan: Plan): PlanMessage {
  return PlanMessage.fromPartial({
    id: plan.id,
    name: plan.name,
    kind: toProtoKind(plan.kind),
    tier: toProtoTier(plan.tier),
    interval: toProtoInterval(plan.interval),
    priceMinor: plan.priceMinor,
    currency: plan.currency,
    limits: toProtoLimits(plan.limits, plan.currency),
    selfCheckout: plan.selfCheckout,
    cardRequired: plan.cardRequired,
    description: plan.description,
  });
}

export function subscriptionMessage(subscription: Subscription): SubscriptionMessage {
  const scheduled = subscription.scheduled;
  return SubscriptionMessage.fromPartial({
    id: subscription.id,
    accountId: subscription.accountId,
    kind: toProtoKind(subscription.kind),
    planId: subscription.planId,
    tier: toProtoTier(subscription.tier),
    interval: toProtoInterval(subscription.interval),
    status: SubscriptionStatus[`SUBSCRIPTION_STATUS_${subscription.status}`],
    periodStart: subscription.periodStart,
    periodEnd: subscription.periodEnd ?? undefined,
    scheduledChange: ScheduledChange[`SCHEDULED_CHANGE_${scheduled?.type ?? 'NONE'}`],
    scheduledPlanId: scheduled?.type === 'DOWNGRADE' ? scheduled.planId : '',
    createdAt: subscription.createdAt,
    updatedAt: subscription.updatedAt,
  });
}

export function orderMessage(order: Order): OrderMessage {
  return OrderMessage.fromPartial({
    id: order.id,
    accountId: order.accountId,
    kind: toProtoKind(order.kind),
    planId: order.planId,
    amountMinor: order.amountMinor,
    currency: order.currency,
    status: OrderStatus[`ORDER_STATUS_${order.status}`],
    provider: order.provider,
    providerRef: order.providerRef,
    checkoutUrl: order.checkoutUrl,
    returnUrl: order.returnUrl,
    createdAt: order.createdAt,
    expiresAt: order.expiresAt,
    paidAt: order.paidAt ?? undefined,
  });
}

export function invoiceMessage(invoice: Invoice): InvoiceMessage {
  return InvoiceMessage.fromPartial({
    id: invoice.id,
    accountId: invoice.accountId,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    currency: invoice.currency,
    lines: invoice.lines.map((line) => ({
      kind: InvoiceLineKind[`INVOICE_LINE_KIND_${line.kind}`],
      description: line.description,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      amountMinor: line.amountMinor,
      planId: line.planId,
      paidByOrderId: line.paidByOrderId ?? '',
    })),
    totalMinor: invoice.totalMinor,
    amountDueMinor: invoice.amountDueMinor,
    lookups: invoice.lookups,
    includedLookups: invoice.includedLookups,
    planId: invoice.planId,
    issuedAt: invoice.issuedAt,
  });
}
