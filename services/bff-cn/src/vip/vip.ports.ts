import type { CurrentPlan, Order, Plan } from '@ipdata/proto/billing/v1/billing';

/** Billing as face A's VIP pages need it (adapters/grpc/billing.adapter.ts). */
export interface VipBilling {
  /** The VIP plans of the catalogue (kind VIP), cheapest interval first as billing lists them. */
  vipPlans(): Promise<Plan[]>;
  /** The account's VIP entry of GetCurrentPlans; undefined when billing lists none. */
  currentVip(accountId: string): Promise<CurrentPlan | undefined>;
  /** Billing's Subscribe: a pending order with the provider's checkout URL. */
  subscribe(accountId: string, planId: string, returnUrl: string): Promise<Order>;
  getOrder(accountId: string, orderId: string): Promise<Order>;
}
