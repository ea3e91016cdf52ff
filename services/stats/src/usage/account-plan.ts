/** An account's API plan as stats needs it for the month's quota view (from billing.subscription.v1). */
export interface AccountPlan {
  accountId: string;
  planId: string;
  /** Lookups included per month. */
  includedPerMonth: number;
  /** The plan's paid period ends here (then FREE applies again); null = open-ended. */
  periodEnd: Date | null;
  canceled: boolean;
  /** meta.time of the event: a later event replaces an earlier one, an older one is ignored. */
  changedAt: Date;
}

/** FREE: 50,000 lookups a month (product spec), what an account without a known plan has. */
export const FREE_PLAN = { planId: 'api-free', includedPerMonth: 50_000 } as const;

/** Port: the latest API plan per account (adapters/mongo/account-plans.store.ts). */
export interface AccountPlans {
  /** Stores the plan unless a later change of the account is stored already. */
  record(plan: AccountPlan): Promise<void>;
  get(accountId: string): Promise<AccountPlan | null>;
}

/** The plan in force at `now`: a canceled or expired paid plan falls back to FREE. */
export function planInForce(plan: AccountPlan | null, now: Date): { planId: string; includedPerMonth: number } {
  if (!plan || plan.canceled || (plan.periodEnd !== null && plan.periodEnd.getTime() <= now.getTime())) return FREE_PLAN;
  return { planId: plan.planId, includedPerMonth: plan.includedPerMonth };
}
