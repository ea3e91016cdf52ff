import type { Logger } from 'pino';
import { InvalidArgumentError, NotFoundError, type Clock } from '@ipdata/common';
import type { Plan } from '../plans/plan.js';
import { newId } from '../shared/ids.js';
import { INPUT_LIMITS, requireAccountId, requireBounded } from '../shared/input-limits.js';
import { readPage, nextPageToken } from '../shared/paging.js';
import { effectiveStatus, type Order, type OrderRepository, type ProcessedCallbacks } from './order.js';
import type { PaymentProvider } from './payment-provider.js';

/** Applies a paid order to the account's subscription (SubscriptionService). */
export interface PaidOrderHandler {
  applyPaidOrder(order: Order): Promise<void>;
}

export type CallbackOutcome = 'processed' | 'duplicate';

/**
 * Orders and the provider's callbacks. A callback is verified by the provider adapter
 * (signature + timestamp window), then processed once per provider event id: the order moves
 * to PAID or CANCELED with a conditional update, the paid plan is applied (idempotent per
 * order), and only then is the event id recorded, so a crash in between is repaired by the
 * provider's retry and a replay of a handled callback changes nothing.
 */
export class PaymentService {
  constructor(
    private readonly deps: {
      orders: OrderRepository;
      callbacks: ProcessedCallbacks;
      provider: PaymentProvider;
      paidOrders: PaidOrderHandler;
      clock: Clock;
      orderTtlMs: number;
      logger: Logger;
    },
  ) {}

  async createOrder(accountId: string, plan: Plan, returnUrl: string): Promise<Order> {
    const now = this.deps.clock.now();
    const order: Order = {
      id: newId('ord'),
      accountId,
      kind: plan.kind,
      planId: plan.id,
      amountMinor: plan.priceMinor,
      currency: plan.currency,
      status: 'PENDING',
      provider: this.deps.provider.name,
      providerRef: '',
      checkoutUrl: '',
      returnUrl,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.deps.orderTtlMs),
      paidAt: null,
    };
    // Stored before the provider hears of it, so no callback can name an order billing lacks.
    await this.deps.orders.insert(order);
    const session = await this.deps.provider.createCheckout({
      orderId: order.id,
      description: `${plan.name} (${plan.kind === 'VIP' ? 'VIP' : plan.kind === 'API_ACCESS' ? 'API access' : 'data download'}, ${plan.interval.toLowerCase()})`,
      amountMinor: order.amountMinor,
      currency: order.currency,
      returnUrl,
      expiresAt: order.expiresAt,
    });
    return this.deps.orders.setCheckout(order.id, session.providerRef, session.checkoutUrl);
  }

  async getOrder(accountId: string, orderId: string): Promise<Order> {
    requireAccountId(accountId);
    requireBounded('order_id', orderId, INPUT_LIMITS.id);
    const order = await this.deps.orders.get(orderId);
    if (!order || order.accountId !== accountId)
      throw new NotFoundError(`order not found: ${orderId}`, { reason: 'order_not_found' });
    return this.present(order);
  }

  async listOrders(accountId: string, pageSize: number, pageToken: string): Promise<{ orders: Order[]; nextPageToken: string }> {
    requireAccountId(accountId);
    const page = readPage(pageSize, pageToken);
    const orders = await this.deps.orders.listByAccount(accountId, page.offset, page.limit + 1);
    const shown = orders.slice(0, page.limit).map((order) => this.present(order));
    return { orders: shown, nextPageToken: nextPageToken(page, shown.length, orders.length > page.limit) };
  }

  async handleCallback(
    providerName: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: Buffer,
  ): Promise<CallbackOutcome> {
    const provider = this.deps.provider;
    if (providerName !== provider.name) throw new NotFoundError(`unknown payment provider: ${providerName}`);
    const notification = provider.parseCallback(headers, rawBody);
    if (await this.deps.callbacks.has(provider.name, notification.eventId)) {
      this.deps.logger.info({ eventId: notification.eventId }, 'payment callback already processed');
      return 'duplicate';
    }
    const order = await this.deps.orders.findByProviderRef(provider.name, notification.providerRef);
    if (!order) throw new NotFoundError(`no order for checkout ${notification.providerRef}`, { reason: 'order_not_found' });
    if (notification.amountMinor !== order.amountMinor || notification.currency !== order.currency) {
      throw new InvalidArgumentError('callback amount does not match the order', { reason: 'amount_mismatch' });
    }
    let outcome: string;
    if (notification.status === 'paid') {
      // Money was taken: a payment counts even for an order that expired or was canceled meanwhile.
      const paid =
        (await this.deps.orders.transition(order.id, ['PENDING', 'EXPIRED', 'CANCELED'], 'PAID', {
          paidAt: this.deps.clock.now(),
        })) ?? (await this.deps.orders.get(order.id));
      if (paid?.status !== 'PAID') throw new NotFoundError(`order ${order.id} vanished`);
      await this.deps.paidOrders.applyPaidOrder(paid);
      outcome = 'paid';
    } else {
      const canceled = await this.deps.orders.transition(order.id, ['PENDING'], 'CANCELED');
      outcome = canceled ? 'canceled' : `ignored cancel of ${order.status} order`;
    }
    await this.deps.callbacks.record({
      provider: provider.name,
      eventId: notification.eventId,
      orderId: order.id,
      outcome,
      receivedAt: this.deps.clock.now(),
    });
    this.deps.logger.info({ orderId: order.id, eventId: notification.eventId, outcome }, 'payment callback processed');
    return 'processed';
  }

  expireDueOrders(): Promise<number> {
    return this.deps.orders.expireDue(this.deps.clock.now());
  }

  private present(order: Order): Order {
    return { ...order, status: effectiveStatus(order, this.deps.clock.now()) };
  }
}
