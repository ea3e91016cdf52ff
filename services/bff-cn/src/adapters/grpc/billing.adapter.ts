import { callUnary } from '@ipdata/common';
import type { BillingServiceClient, Order } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { VipBilling } from '../../vip/vip.ports.js';

/**
 * Billing's plan, subscription and order methods for face A's VIP (mutual TLS as `bff-cn`;
 * billing's access policy allows the BFFs). Billing checks the account on every order call, so
 * another account's order answers NOT_FOUND.
 */
export class GrpcVipBilling implements VipBilling {
  constructor(
    private readonly client: BillingServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  async vipPlans() {
    const request = { kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP, interval: 0 };
    return (await callUnary(this.client.listPlans.bind(this.client), request, undefined, this.options())).plans;
  }

  async currentVip(accountId: string) {
    const answer = await callUnary(this.client.getCurrentPlans.bind(this.client), { accountId }, undefined, this.options());
    return answer.plans.find((plan) => plan.kind === SubscriptionKind.SUBSCRIPTION_KIND_VIP);
  }

  async subscribe(accountId: string, planId: string, returnUrl: string): Promise<Order> {
    const answer = await callUnary(
      this.client.subscribe.bind(this.client),
      { accountId, planId, returnUrl },
      undefined,
      this.options(),
    );
    if (answer.order === undefined) throw new Error(`billing answered Subscribe(${planId}) without an order`);
    return answer.order;
  }

  async getOrder(accountId: string, orderId: string): Promise<Order> {
    const answer = await callUnary(this.client.getOrder.bind(this.client), { accountId, orderId }, undefined, this.options());
    if (answer.order === undefined) throw new Error(`billing answered GetOrder(${orderId}) without an order`);
    return answer.order;
  }
}
