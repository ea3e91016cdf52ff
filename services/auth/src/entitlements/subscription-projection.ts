import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { stateFromEvent, type SubscriptionRepository } from './entitlements.js';

/**
 * Keeps auth's projection of billing.subscription.v1 (latest state per account and kind) and
 * tells the API-key cache when an account's plan moved. Idempotent: re-applying an event, or an
 * older one arriving late, changes nothing.
 */
export class SubscriptionProjection {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly onAccountChanged: (accountId: string) => Promise<void>,
  ) {}

  async apply(event: SubscriptionChanged, eventId: string, eventTime: Date): Promise<boolean> {
    if (!event.accountId) return false;
    const applied = await this.subscriptions.applyIfNewer(stateFromEvent(event, eventId, eventTime));
    // Invalidate even for an equal replay: cheap, and it makes a retried handler converge.
    await this.onAccountChanged(event.accountId);
    return applied;
  }
}
