import { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { TOPICS, type EventProducer } from '@ipdata/common';
import type { SubscriptionEventPublisher } from '../../subscriptions/subscription.ports.js';
import type { SubscriptionChangeRecord } from '../../subscriptions/subscription.js';
import { toProtoChange, toProtoInterval, toProtoKind, toProtoLimits, toProtoTier } from '../proto-enums.js';

/** SubscriptionChanged on billing.subscription.v1, key = account id, event id = change id. */
export class KafkaSubscriptionEventPublisher implements SubscriptionEventPublisher {
  constructor(private readonly producer: EventProducer) {}

  async publish(change: SubscriptionChangeRecord): Promise<void> {
    const event = SubscriptionChanged.fromPartial({
      meta: { id: change.id, time: change.occurredAt },
      accountId: change.accountId,
      subscriptionId: change.subscriptionId,
      kind: toProtoKind(change.kind),
      change: toProtoChange(change.change),
      planId: change.planId,
      tier: toProtoTier(change.tier),
      interval: toProtoInterval(change.interval),
      limits: toProtoLimits(change.limits, change.currency),
      periodStart: change.periodStart,
      periodEnd: change.periodEnd ?? undefined,
    });
    await this.producer.send(TOPICS.billingSubscription, event, { key: change.accountId });
  }
}
