/** What an account's data-download plan lets it download (from billing.subscription.v1). */
export interface Entitlement {
  accountId: string;
  planId: string;
  datasets: string[];
  /** The change's time: an older change never overwrites a newer one. */
  changedAt: Date;
}

export interface EntitlementStore {
  /** Stores the change unless a newer one of the same account is stored. */
  record(entitlement: Entitlement): Promise<void>;
  get(accountId: string): Promise<Entitlement | null>;
}

/** The plan an account has before billing's first event about it arrived (billing gives every account the free plan). */
export interface DefaultPlan {
  planId: string;
  datasets: string[];
}

export class Entitlements {
  constructor(
    private readonly store: EntitlementStore,
    private readonly defaultPlan: DefaultPlan,
  ) {}

  async of(accountId: string): Promise<{ planId: string; datasets: string[] }> {
    const stored = await this.store.get(accountId);
    return stored ? { planId: stored.planId, datasets: stored.datasets } : { ...this.defaultPlan };
  }

  record(entitlement: Entitlement): Promise<void> {
    return this.store.record(entitlement);
  }
}
