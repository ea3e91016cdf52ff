import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { SubscriptionKind, type SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { billingSubscriptionConsumer, type EventConsumer, type EventProducer } from '@ipdata/common';
import type { Entitlements } from '../../entitlements/entitlement.js';

/**
 * billing.subscription.v1 → the datasets each account's data-download plan includes. Only
 * SUBSCRIPTION_KIND_DATA_DOWNLOAD changes count; the latest change per account wins by its event
 * time (a re-delivered or late older event changes nothing), so no de-duplication store is needed.
 * A cancellation is followed by billing's change to the free plan, which then wins.
 */
export function subscriptionsConsumer(
  deps: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; sessionTimeoutMs?: number; entitlements: Entitlements },
  logger: Logger,
): EventConsumer<SubscriptionChanged> {
  return billingSubscriptionConsumer(
    {
      kafka: deps.kafka,
      groupId: deps.groupId,
      dlqProducer: deps.dlqProducer,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD,
      requireAccount: true,
      handle: async ({ event, changedAt }) => {
        await deps.entitlements.record({
          accountId: event.accountId,
          planId: event.planId,
          datasets: [...(event.limits?.downloadableDatasets ?? [])],
          changedAt,
        });
      },
    },
    logger,
  );
}
