import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { SubscriptionChanged, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { EventConsumer, PoisonRecordError } from './event-consumer.js';
import type { EventDeduplicator } from './event-deduplicator.js';
import type { EventProducer } from './event-producer.js';
import { TOPICS } from './topic-catalogue.js';

/** One billing.subscription.v1 change as its consumers use it. */
export interface SubscriptionChangeRecord {
  event: SubscriptionChanged;
  /** The record's event id (CloudEvents `ce_id`). */
  id: string;
  /** When billing made the change: the event's own time, else the record's CloudEvents time. */
  changedAt: Date;
}

export interface SubscriptionConsumerConfig {
  kafka: Kafka;
  /** Consumer group: the consuming service's name, or one per replica for a cache. */
  groupId: string;
  dlqProducer: EventProducer;
  sessionTimeoutMs?: number;
  /** For handlers that are not idempotent by themselves (a projection keyed by event id is). */
  deduplicator?: EventDeduplicator;
  /** Only changes of this kind reach `handle` (the others are committed unseen); default every kind. */
  kind?: SubscriptionKind;
  /**
   * A change that names no account can never be applied: it goes to the DLQ without retries
   * instead of reaching `handle`. Off for consumers that only drop cache entries.
   */
  requireAccount?: boolean;
  handle: (change: SubscriptionChangeRecord) => Promise<void>;
}

/**
 * A consumer of billing.subscription.v1, the plan changes that auth, downloads, stats, content
 * and the BFFs' key caches follow: the topic, the kind filter, the poison rule and the change's
 * time are the same for all of them, so each states only what a change does to it.
 */
export function billingSubscriptionConsumer(
  config: SubscriptionConsumerConfig,
  logger: Logger,
): EventConsumer<SubscriptionChanged> {
  const { kind, requireAccount, handle } = config;
  return EventConsumer.fromConfig(
    {
      kafka: config.kafka,
      groupId: config.groupId,
      topic: TOPICS.billingSubscription,
      dlqProducer: config.dlqProducer,
      sessionTimeoutMs: config.sessionTimeoutMs,
      deduplicator: config.deduplicator,
      handler: async ({ event, id, time }) => {
        if (kind !== undefined && event.kind !== kind) return;
        if (requireAccount === true && event.accountId === '') {
          throw new PoisonRecordError('subscription change without an account id');
        }
        await handle({ event, id, changedAt: event.meta?.time ?? new Date(time) });
      },
    },
    logger,
  );
}
