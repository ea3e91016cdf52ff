import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { SubscriptionChange, SubscriptionKind, type SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { EventConsumer, PoisonRecordError, TOPICS, type EventProducer } from '@ipdata/common';
import type { AccountPlans } from '../../usage/account-plan.js';

/**
 * billing.subscription.v1 → the latest API plan per account, for GetMonthUsage's allowance.
 * Idempotent by itself: a plan is stored only over an older change of the same account.
 */
export function plansConsumer(
  deps: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; sessionTimeoutMs?: number; plans: AccountPlans },
  logger: Logger,
): EventConsumer<SubscriptionChanged> {
  return EventConsumer.fromConfig(
    {
      kafka: deps.kafka,
      groupId: deps.groupId,
      topic: TOPICS.billingSubscription,
      dlqProducer: deps.dlqProducer,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      handler: async ({ event, time }) => {
        if (event.kind !== SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS) return;
        if (event.accountId === '') throw new PoisonRecordError('subscription change without an account id');
        await deps.plans.record({
          accountId: event.accountId,
          planId: event.planId,
          includedPerMonth: event.limits?.lookupsPerMonth ?? 0,
          periodEnd: event.periodEnd ?? null,
          canceled: event.change === SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED,
          changedAt: event.meta?.time ?? new Date(time),
        });
      },
    },
    logger,
  );
}
