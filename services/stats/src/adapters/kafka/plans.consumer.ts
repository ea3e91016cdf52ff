import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { SubscriptionChange, SubscriptionKind, type SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { billingSubscriptionConsumer, type EventConsumer, type EventProducer } from '@ipdata/common';
import type { AccountPlans } from '../../usage/account-plan.js';

/**
 * billing.subscription.v1 → the latest API plan per account, for GetMonthUsage's allowance.
 * Idempotent by itself: a plan is stored only over an older change of the same account.
 */
export function plansConsumer(
  deps: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; sessionTimeoutMs?: number; plans: AccountPlans },
  logger: Logger,
): EventConsumer<SubscriptionChanged> {
  return billingSubscriptionConsumer(
    {
      ...deps,
      kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS,
      requireAccount: true,
      handle: async ({ event, changedAt }) => {
        await deps.plans.record({
          accountId: event.accountId,
          planId: event.planId,
          includedPerMonth: event.limits?.lookupsPerMonth ?? 0,
          periodEnd: event.periodEnd ?? null,
          canceled: event.change === SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED,
          changedAt,
        });
      },
    },
    logger,
  );
}
