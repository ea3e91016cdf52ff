import { z } from 'zod';
import { identifier, noInput, text } from '../web-input.js';
import { defineWebRoute, type WebRoute } from '../web-route.js';
import type { WebBilling } from '../web-api.ports.js';
import { KIND_NAMES, TIER_NAMES, planView } from '../web-views.js';
import type { Invoice, Subscription } from '@ipdata/proto/billing/v1/billing';

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

function subscriptionView(subscription: Subscription) {
  return {
    id: subscription.id,
    kind: KIND_NAMES[subscription.kind] ?? 'api',
    plan_id: subscription.planId,
    tier: TIER_NAMES[subscription.tier],
    period_start: iso(subscription.periodStart),
    period_end: iso(subscription.periodEnd),
    scheduled_plan_id: subscription.scheduledPlanId || null,
  };
}

function invoiceView(invoice: Invoice) {
  return {
    id: invoice.id,
    period_start: iso(invoice.periodStart),
    period_end: iso(invoice.periodEnd),
    currency: invoice.currency,
    total_minor: invoice.totalMinor,
    amount_due_minor: invoice.amountDueMinor,
    lookups: invoice.lookups,
    included_lookups: invoice.includedLookups,
    plan_id: invoice.planId,
    issued_at: iso(invoice.issuedAt),
    lines: invoice.lines.map((line) => ({ description: line.description, amount_minor: line.amountMinor })),
  };
}

/**
 * Pricing and billing: the plan catalogue, the account's plans, checkout through billing's
 * payment provider (the sandbox provider in development and tests), downgrades at the period's
 * end, invoices. The checkout returns the buyer to `returnUrl` (SITE_ORIGIN's pricing page: never
 * a URL the client chose, so no open redirect).
 */
export function billingRoutes(deps: { billing: WebBilling; returnUrl: string }): WebRoute[] {
  const { billing } = deps;
  return [
    defineWebRoute({
      name: 'listPlans',
      method: 'GET',
      path: '/api/plans',
      login: false,
      input: noInput,
      handle: async () => ({ data: { plans: (await billing.plans()).map(planView) } }),
    }),
    defineWebRoute({
      name: 'getSubscription',
      method: 'GET',
      path: '/api/subscription',
      login: true,
      input: noInput,
      handle: async (context) => {
        const current = await billing.currentPlans(context.accountId as string);
        return {
          data: {
            plans: current.map((entry) => ({
              kind: KIND_NAMES[entry.kind] ?? 'api',
              plan: entry.plan && planView(entry.plan),
              subscription: entry.subscription && subscriptionView(entry.subscription),
            })),
          },
        };
      },
    }),
    defineWebRoute({
      name: 'subscribe',
      method: 'POST',
      path: '/api/subscription',
      login: true,
      input: z.object({ plan_id: identifier }),
      handle: async (context, input) => {
        const { order, subscription } = await billing.subscribe(context.accountId as string, input.plan_id, deps.returnUrl);
        // A paid plan: pay at the checkout first. FREE applies at once.
        if (order !== undefined) return { data: { checkout_url: order.checkoutUrl, order_id: order.id, subscription: null } };
        return {
          data: { checkout_url: null, order_id: null, subscription: subscription && subscriptionView(subscription) },
          msg: 'Subscription successful',
        };
      },
    }),
    defineWebRoute({
      name: 'scheduleDowngrade',
      method: 'POST',
      path: '/api/subscription/downgrade',
      login: true,
      input: z.object({ plan_id: identifier }),
      handle: async (context, input) => {
        const subscription = await billing.scheduleDowngrade(context.accountId as string, input.plan_id);
        return {
          data: { subscription: subscription && subscriptionView(subscription) },
          msg: 'Your plan will change at the end of the current period',
        };
      },
    }),
    defineWebRoute({
      name: 'listInvoices',
      method: 'GET',
      path: '/api/invoices',
      login: true,
      input: z.object({ page_token: text(200) }),
      handle: async (context, input) => {
        const { invoices, nextPageToken } = await billing.invoices(context.accountId as string, input.page_token);
        return { data: { invoices: invoices.map(invoiceView), next_page_token: nextPageToken || null } };
      },
    }),
  ];
}
