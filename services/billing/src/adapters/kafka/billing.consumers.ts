import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { RollupGranularity, type UsageRollup } from '@ipdata/proto/events/v1/billing';
import { UserEventKind, type UserEvent } from '@ipdata/proto/events/v1/user';
import { EventConsumer, PoisonRecordError, TOPICS, type EventProducer } from '@ipdata/common';
import type { InvoiceService } from '../../invoices/invoice.service.js';
import { isAccountId } from '../../shared/input-limits.js';
import type { SubscriptionService } from '../../subscriptions/subscription.service.js';

/**
 * auth.user.v1: REGISTERED → billing knows the account (only known accounts may subscribe)
 * and gives it FREE plans. Idempotent by itself (account id as key, one subscription per
 * account and kind, unique indexes), so no separate de-duplication store is needed.
 */
export function userEventsConsumer(
  options: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; subscriptions: SubscriptionService },
  logger: Logger,
): EventConsumer<UserEvent> {
  return EventConsumer.fromConfig(
    {
      kafka: options.kafka,
      groupId: options.groupId,
      topic: TOPICS.authUser,
      dlqProducer: options.dlqProducer,
      handler: async ({ event }) => {
        if (event.kind !== UserEventKind.USER_EVENT_KIND_REGISTERED) return;
        if (!isAccountId(event.accountId)) throw new PoisonRecordError('REGISTERED event without a well-formed account id');
        await options.subscriptions.registerAccount(event.accountId);
      },
    },
    logger,
  );
}

/**
 * usage.rollup.v1: a closed monthly account total → that month's invoice. Idempotent by the
 * unique (account, month) index: re-deliveries and repeated closed rollups issue nothing new.
 */
export function usageRollupConsumer(
  options: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; invoices: InvoiceService },
  logger: Logger,
): EventConsumer<UsageRollup> {
  return EventConsumer.fromConfig(
    {
      kafka: options.kafka,
      groupId: options.groupId,
      topic: TOPICS.usageRollup,
      dlqProducer: options.dlqProducer,
      handler: async ({ event, id }) => {
        const accountTotal = event.apiKeyId === '' && event.granularity === RollupGranularity.ROLLUP_GRANULARITY_MONTH;
        if (!accountTotal || !event.closed) return;
        if (!isAccountId(event.accountId) || !event.periodStart) {
          throw new PoisonRecordError('closed rollup without a well-formed account id or period');
        }
        await options.invoices.issueForClosedMonth({
          eventId: id,
          accountId: event.accountId,
          periodStart: event.periodStart,
          lookups: event.lookups,
        });
      },
    },
    logger,
  );
}
