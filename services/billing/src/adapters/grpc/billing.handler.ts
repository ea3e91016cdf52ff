import type { Logger } from 'pino';
import {
  BillingServiceService,
  type BillingServiceServer,
  type CancelSubscriptionRequest,
  type CancelSubscriptionResponse,
  type GetCurrentPlansRequest,
  type GetCurrentPlansResponse,
  type GetInvoiceRequest,
  type GetInvoiceResponse,
  type GetOrderRequest,
  type GetOrderResponse,
  type GetUpcomingInvoiceRequest,
  type GetUpcomingInvoiceResponse,
  type ListInvoicesRequest,
  type ListInvoicesResponse,
  type ListOrdersRequest,
  type ListOrdersResponse,
  type ListPlansRequest,
  type ListPlansResponse,
  type ScheduleDowngradeRequest,
  type ScheduleDowngradeResponse,
  type SubscribeRequest,
  type SubscribeResponse,
} from '@ipdata/proto/billing/v1/billing';
import { InvalidArgumentError, unary, type GrpcServer } from '@ipdata/common';
import type { InvoiceService } from '../../invoices/invoice.service.js';
import type { PaymentService } from '../../payments/payment.service.js';
import type { PlanCatalogue } from '../../plans/plan-catalogue.js';
import { isFree } from '../../plans/plan.js';
import type { SubscriptionService } from '../../subscriptions/subscription.service.js';
import { fromProtoInterval, fromProtoKind, toProtoKind } from '../proto-enums.js';
import { invoiceMessage, orderMessage, planMessage, subscriptionMessage } from './billing.mapper.js';

export const BILLING_SERVICE_NAME = 'ipdata.billing.v1.BillingService';

/** Thin gRPC handlers: decode, call the domain, encode. Errors are mapped by unary(). */
export function addBillingService(
  server: GrpcServer,
  deps: { catalogue: PlanCatalogue; subscriptions: SubscriptionService; payments: PaymentService; invoices: InvoiceService },
  logger: Logger,
): void {
  const implementation: BillingServiceServer = {
    listPlans: unary<ListPlansRequest, ListPlansResponse>(logger, 'ListPlans', async (request) => {
      const kind = fromProtoKind(request.kind);
      const interval = fromProtoInterval(request.interval);
      // Free plans show on both sides of the monthly/yearly toggle.
      const plans = deps.catalogue.plans.filter(
        (plan) => (!kind || plan.kind === kind) && (!interval || plan.interval === interval || isFree(plan)),
      );
      return { plans: plans.map(planMessage) };
    }),
    getCurrentPlans: unary<GetCurrentPlansRequest, GetCurrentPlansResponse>(logger, 'GetCurrentPlans', async (request) => {
      const views = await deps.subscriptions.currentPlans(request.accountId);
      return {
        plans: views.map((view) => ({
          kind: toProtoKind(view.kind),
          plan: planMessage(view.plan),
          subscription: view.subscription ? subscriptionMessage(view.subscription) : undefined,
        })),
      };
    }),
    subscribe: unary<SubscribeRequest, SubscribeResponse>(logger, 'Subscribe', async (request) => {
      const result = await deps.subscriptions.subscribe(request.accountId, request.planId, request.returnUrl);
      return {
        order: result.order ? orderMessage(result.order) : undefined,
        subscription: result.subscription ? subscriptionMessage(result.subscription) : undefined,
      };
    }),
    scheduleDowngrade: unary<ScheduleDowngradeRequest, ScheduleDowngradeResponse>(
      logger,
      'ScheduleDowngrade',
      async (request) => ({
        subscription: subscriptionMessage(await deps.subscriptions.scheduleDowngrade(request.accountId, request.planId)),
      }),
    ),
    cancelSubscription: unary<CancelSubscriptionRequest, CancelSubscriptionResponse>(
      logger,
      'CancelSubscription',
      async (request) => {
        const kind = fromProtoKind(request.kind);
        if (!kind) throw new InvalidArgumentError('kind is required', { details: { field: 'kind' } });
        return { subscription: subscriptionMessage(await deps.subscriptions.cancel(request.accountId, kind)) };
      },
    ),
    getOrder: unary<GetOrderRequest, GetOrderResponse>(logger, 'GetOrder', async (request) => ({
      order: orderMessage(await deps.payments.getOrder(request.accountId, request.orderId)),
    })),
    listOrders: unary<ListOrdersRequest, ListOrdersResponse>(logger, 'ListOrders', async (request) => {
      const page = await deps.payments.listOrders(request.accountId, request.pageSize, request.pageToken);
      return { orders: page.orders.map(orderMessage), nextPageToken: page.nextPageToken };
    }),
    listInvoices: unary<ListInvoicesRequest, ListInvoicesResponse>(logger, 'ListInvoices', async (request) => {
      const page = await deps.invoices.listInvoices(request.accountId, request.pageSize, request.pageToken);
      return { invoices: page.invoices.map(invoiceMessage), nextPageToken: page.nextPageToken };
    }),
    getInvoice: unary<GetInvoiceRequest, GetInvoiceResponse>(logger, 'GetInvoice', async (request) => ({
      invoice: invoiceMessage(await deps.invoices.getInvoice(request.accountId, request.invoiceId)),
    })),
    getUpcomingInvoice: unary<GetUpcomingInvoiceRequest, GetUpcomingInvoiceResponse>(
      logger,
      'GetUpcomingInvoice',
      async (request) => ({
        // Not issued yet: no issued_at.
        invoice: { ...invoiceMessage(await deps.invoices.upcomingInvoice(request.accountId)), issuedAt: undefined },
      }),
    ),
  };
  server.addService(BILLING_SERVICE_NAME, BillingServiceService, implementation);
}
