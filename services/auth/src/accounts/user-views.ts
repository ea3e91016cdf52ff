import type { User } from '@ipdata/proto/auth/v1/auth';
import type { SubscriptionRepository } from '../entitlements/entitlements.js';
import type { Clock } from '@ipdata/common';
import { toUser, type Account } from './account.js';

/** Builds the spec's user state: account fields plus entitlements from the subscription projection. */
export class UserViews {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly clock: Clock,
  ) {}

  async of(account: Account): Promise<User> {
    return toUser(account, await this.subscriptions.forAccount(account.id), this.clock.now());
  }
}
