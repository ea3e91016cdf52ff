import { defineAccessPolicy, type GrpcIdentity } from '@ipdata/common';
import { BillingServiceService } from '@ipdata/proto/billing/v1/billing';

/**
 * Who may call billing (identity = client certificate CN, see services/common/README.md "gRPC").
 * Both BFFs call it (billing.proto: face A's VIP, face B's plans and invoices). `operator` may
 * read the plan catalogue only: every other method reads or changes one account's plans,
 * orders or invoices. Back-end services learn about subscriptions from billing.subscription.v1.
 */
const BFFS: readonly GrpcIdentity[] = ['bff-cn', 'bff-en'];

export const billingAccessPolicy = defineAccessPolicy(BillingServiceService, {
  listPlans: [...BFFS, 'operator'],
  getCurrentPlans: BFFS,
  subscribe: BFFS,
  scheduleDowngrade: BFFS,
  cancelSubscription: BFFS,
  getOrder: BFFS,
  listOrders: BFFS,
  listInvoices: BFFS,
  getInvoice: BFFS,
  getUpcomingInvoice: BFFS,
});
