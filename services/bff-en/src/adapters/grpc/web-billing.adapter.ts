import { callUnary } from '@ipdata/common';
import type { BillingServiceClient } from '@ipdata/proto/billing/v1/billing';
import { BillingInterval, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { WebBilling } from '../../web-api/web-api.ports.js';

/** Billing for the pricing and billing screens over gRPC (mutual TLS as `bff-en`). */
export class GrpcWebBilling implements WebBilling {
  constructor(
    private readonly client: BillingServiceClient,
    private readonly deadlineMs = 3_000,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  async plans() {
    const request = {
      kind: SubscriptionKind.SUBSCRIPTION_KIND_UNSPECIFIED,
      interval: BillingInterval.BILLING_INTERVAL_UNSPECIFIED,
    };
    return (await callUnary(this.client.listPlans.bind(this.client), request, undefined, this.options())).plans;
  }

  async currentPlans(accountId: string) {
    return (await callUnary(this.client.getCurrentPlans.bind(this.client), { accountId }, undefined, this.options())).plans;
  }

  subscribe(accountId: string, planId: string, returnUrl: string) {
    return callUnary(this.client.subscribe.bind(this.client), { accountId, planId, returnUrl }, undefined, this.options());
  }

  async scheduleDowngrade(accountId: string, planId: string) {
    const request = { accountId, planId };
    return (await callUnary(this.client.scheduleDowngrade.bind(this.client), request, undefined, this.options())).subscription;
  }

  async invoices(accountId: string, pageToken: string) {
    const request = { accountId, pageSize: 24, pageToken };
    return callUnary(this.client.listInvoices.bind(this.client), request, undefined, this.options());
  }
}
