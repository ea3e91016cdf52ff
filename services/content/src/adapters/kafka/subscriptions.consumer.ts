import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { SubscriptionChange, SubscriptionKind, type SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { PoisonRecordError, billingSubscriptionConsumer, type EventConsumer, type EventProducer } from '@ipdata/common';
import { vipMessage, type VipChange } from '../../messages/message-texts.js';
import type { Messages } from '../../messages/messages.js';

const VIP_CHANGES: Partial<Record<SubscriptionChange, VipChange>> = {
  [SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED]: 'created',
  [SubscriptionChange.SUBSCRIPTION_CHANGE_RENEWED]: 'renewed',
  [SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED]: 'canceled',
};

/**
 * billing.subscription.v1, VIP created/renewed/canceled → a message to the account. Other kinds
 * and changes are ignored. The message id is derived from the event id (idempotent re-delivery).
 */
export function subscriptionsConsumer(
  deps: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; sessionTimeoutMs?: number; messages: Messages },
  logger: Logger,
): EventConsumer<SubscriptionChanged> {
  return billingSubscriptionConsumer(
    {
      ...deps,
      kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP,
      handle: async ({ event, id, changedAt }) => {
        const change = VIP_CHANGES[event.change];
        if (change === undefined) return;
        // Only the changes that make a message need an account: checked after the filter.
        if (event.accountId === '') throw new PoisonRecordError('VIP subscription change without an account id');
        await deps.messages.add({
          ...vipMessage(change, event.periodEnd),
          eventId: event.meta?.id || id,
          accountId: event.accountId,
          createdAt: changedAt,
        });
      },
    },
    logger,
  );
}
