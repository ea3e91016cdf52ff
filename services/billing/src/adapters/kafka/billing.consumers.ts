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
 * usage.rollup.v1, account totals only (`api_key_id` empty): a closed month → that month's
 * invoice; a closed hour → stored once per (account, hour); an open month (`closed = false`) →
 * the month's running total (the largest seen stands). Together they are the month's usage so far
 * (GetUpcomingInvoice). Idempotent through unique keys and `$max`: re-deliveries change nothing.
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
        if (event.apiKeyId !== '') return;
        const month = event.granularity === RollupGranularity.ROLLUP_GRANULARITY_MONTH;
        const hour = event.granularity === RollupGranularity.ROLLUP_GRANULARITY_HOUR;
        if (!month && !(hour && event.closed)) return;
        if (!isAccountId(event.accountId) || !event.periodStart) {
          throw new PoisonRecordError('usage rollup without a well-formed account id or period');
        }
        const usage = { accountId: event.accountId, periodStart: event.periodStart, lookups: event.lookups };
        if (hour) await options.invoices.recordClosedHour({ eventId: id, ...usage });
        else if (event.closed) await options.invoices.issueForClosedMonth({ eventId: id, ...usage });
        else await options.invoices.recordRunningMonth(usage);
      },
    },
    logger,
  );
}
