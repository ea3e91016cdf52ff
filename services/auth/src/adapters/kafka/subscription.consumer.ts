import { RedisEventDeduplicator, billingSubscriptionConsumer, type EventConsumer, type EventProducer } from '@ipdata/common';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { SubscriptionProjection } from '../../entitlements/subscription-projection.js';

/** Consumer group "auth" on billing.subscription.v1, feeding the entitlement projection. */
export function subscriptionConsumer(options: {
  kafka: Kafka;
  groupId: string;
  projection: SubscriptionProjection;
  dlqProducer: EventProducer;
  redis: Redis;
  logger: Logger;
}): EventConsumer<SubscriptionChanged> {
  return billingSubscriptionConsumer(
    {
      kafka: options.kafka,
      groupId: options.groupId,
      dlqProducer: options.dlqProducer,
      deduplicator: new RedisEventDeduplicator(options.redis, { namespace: options.groupId }),
      handle: async ({ event, id, changedAt }) => {
        const applied = await options.projection.apply(event, id, changedAt);
        options.logger.debug({ eventId: id, accountId: event.accountId, applied }, 'subscription change applied');
      },
    },
    options.logger,
  );
}
