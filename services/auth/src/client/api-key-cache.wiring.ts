import { EventConsumer, TOPICS, billingSubscriptionConsumer, callUnary, type EventProducer } from '@ipdata/common';
import type { AuthServiceClient } from '@ipdata/proto/auth/v1/auth';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { UserEvent } from '@ipdata/proto/events/v1/user';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { ApiKeyClientCache, ResolvedApiKey } from './api-key-cache.js';

/** The `resolve` option for ApiKeyClientCache: ResolveApiKey on an AuthService client. */
export function grpcApiKeyResolver(client: AuthServiceClient, deadlineMs = 2_000): (key: string) => Promise<ResolvedApiKey> {
  return (key) => callUnary(client.resolveApiKey.bind(client), { key }, undefined, { deadline: Date.now() + deadlineMs });
}

/**
 * The two consumers that keep a BFF replica's cache honest. Every replica must see every event,
 * so `groupId` must be unique per replica (e.g. `bff-en-cache-${hostname}`); they only drop cache
 * entries, so no de-duplication is needed. Register both with the BFF's lifecycle.
 */
export function apiKeyCacheConsumers(options: {
  kafka: Kafka;
  groupId: string;
  cache: ApiKeyClientCache;
  dlqProducer: EventProducer;
  logger: Logger;
}): [EventConsumer<UserEvent>, EventConsumer<SubscriptionChanged>] {
  const common = { kafka: options.kafka, groupId: options.groupId, dlqProducer: options.dlqProducer };
  return [
    EventConsumer.fromConfig(
      { ...common, topic: TOPICS.authUser, handler: async ({ event }) => options.cache.onUserEvent(event) },
      options.logger,
    ),
    billingSubscriptionConsumer(
      {
        ...common,
        groupId: `${options.groupId}-subscriptions`,
        handle: async ({ event }) => options.cache.onSubscriptionChanged(event),
      },
      options.logger,
    ),
  ];
}
