import type { Kind } from '../plans/plan.js';

export type OrderStatus = 'PENDING' | 'PAID' | 'CANCELED' | 'EXPIRED';

/** One purchase of one plan period, paid at the provider's hosted checkout. */
export interface Order {
  id: string;
  accountId: string;
  kind: Kind;
  planId: string;
  /** Integer minor units of `currency`. */
  amountMinor: number;
  currency: string;
  status: OrderStatus;
  provider: string;
  providerRef: string;
  checkoutUrl: string;
  returnUrl: string;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
}

/** A pending order past its expiry reads as EXPIRED even before the sweeper marks it. */
export function effectiveStatus(order: Order, now: Date): OrderStatus {
  return order.status === 'PENDING' && order.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : order.status;
}

export interface OrderRepository {
  insert(order: Order): Promise<void>;
  setCheckout(id: string, providerRef: string, checkoutUrl: string): Promise<Order>;
  get(id: string): Promise<Order | null>;
  findByProviderRef(provider: string, providerRef: string): Promise<Order | null>;
  /** Newest first. */
  listByAccount(accountId: string, offset: number, limit: number): Promise<Order[]>;
  /** Atomically moves an order from one of `from` to `to`; null when it was in another state. */
  transition(id: string, from: readonly OrderStatus[], to: OrderStatus, fields?: { paidAt?: Date }): Promise<Order | null>;
  /** Marks pending orders past their expiry as EXPIRED; returns how many. */
  expireDue(now: Date): Promise<number>;
}

/** Provider callbacks already handled (unique on provider + event id). */
export interface ProcessedCallbacks {
  has(provider: string, eventId: string): Promise<boolean>;
  /** false when it was already recorded. */
  record(entry: { provider: string; eventId: string; orderId: string; outcome: string; receivedAt: Date }): Promise<boolean>;
}
