import { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { TOPICS, outboxEvent, type OutboxEvent } from '@ipdata/common';
import type { SubscriptionChangeRecord } from '../../subscriptions/subscription.js';
import { toProtoChange, toProtoInterval, toProtoKind, toProtoLimits, toProtoTier } from '../proto-enums.js';

/** SubscriptionChanged on billing.subscription.v1: event id = change id, time = when it happened. */
export function subscriptionChangedEvent(change: SubscriptionChangeRecord): SubscriptionChanged {
  return SubscriptionChanged.fromPartial({
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
}

/**
 * A change as a common outbox entry (key = account id). The change record rides along as the
 * attachment: the plan history (subscription_changes) needs fields the event does not carry
 * (price, order, effective time, revision) and is recorded from it right before the send.
 */
export function changeOutboxEvent(change: SubscriptionChangeRecord): OutboxEvent {
  return outboxEvent(TOPICS.billingSubscription, subscriptionChangedEvent(change), {
    key: change.accountId,
    now: change.occurredAt,
    attachment: { ...change },
  });
}

/** The change record an outbox entry carries (see changeOutboxEvent). */
export function changeOfOutboxEvent(entry: Pick<OutboxEvent, 'attachment'>): SubscriptionChangeRecord {
  const change = entry.attachment as SubscriptionChangeRecord | undefined;
  if (!change || typeof change.id !== 'string') throw new TypeError('outbox entry without its subscription change');
  return { ...change, periodEnd: change.periodEnd ?? null, orderId: change.orderId ?? null };
}
