import type { ApiKey, User } from '@ipdata/proto/auth/v1/auth';
import type { Plan } from '@ipdata/proto/billing/v1/billing';
import { BillingInterval, PlanTier, SubscriptionKind } from '@ipdata/proto/events/v1/billing';

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

/**
 * The spec's face B user: the profile fields and `payService` as a comma-separated string (the
 * app turns it into a list, empty when absent).
 */
export function profileView(user: User) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    display_name: user.displayName,
    company_name: user.companyName,
    email_confirmed: user.emailConfirmed,
    auth: user.auth,
    payService: user.payService.join(','),
    created_at: iso(user.createdAt),
  };
}

/** A key as lists show it: never the secret (auth keeps only its hash; it is shown once, at creation). */
export function apiKeyView(key: ApiKey) {
  return { id: key.id, name: key.name, prefix: key.prefix, created_at: iso(key.createdAt), revoked_at: iso(key.revokedAt) };
}

export const TIER_NAMES: Readonly<Record<PlanTier, string>> = {
  [PlanTier.PLAN_TIER_UNSPECIFIED]: 'free',
  [PlanTier.PLAN_TIER_FREE]: 'free',
  [PlanTier.PLAN_TIER_STANDARD]: 'standard',
  [PlanTier.PLAN_TIER_BUSINESS]: 'business',
  [PlanTier.PLAN_TIER_ENTERPRISE]: 'enterprise',
  [PlanTier.UNRECOGNIZED]: 'free',
};

export const KIND_NAMES: Readonly<Partial<Record<SubscriptionKind, 'api' | 'download' | 'vip'>>> = {
  [SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS]: 'api',
  [SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD]: 'download',
  [SubscriptionKind.SUBSCRIPTION_KIND_VIP]: 'vip',
};

const INTERVAL_NAMES: Readonly<Partial<Record<BillingInterval, 'month' | 'year'>>> = {
  [BillingInterval.BILLING_INTERVAL_MONTHLY]: 'month',
  [BillingInterval.BILLING_INTERVAL_YEARLY]: 'year',
};

/** A plan as the pricing page shows it (prices in minor units of `currency`). */
export function planView(plan: Plan) {
  const limits = plan.limits;
  return {
    id: plan.id,
    name: plan.name,
    kind: KIND_NAMES[plan.kind] ?? 'api',
    tier: TIER_NAMES[plan.tier],
    interval: INTERVAL_NAMES[plan.interval] ?? null,
    price_minor: plan.priceMinor,
    currency: plan.currency,
    description: plan.description,
    self_checkout: plan.selfCheckout,
    card_required: plan.cardRequired,
    lookups_per_month: limits?.lookupsPerMonth ?? 0,
    overage_price_per_1k_minor: limits?.overagePricePer1kMinor ?? 0,
    max_lookups_per_month: limits?.maxLookupsPerMonth || null,
    support_level: limits?.supportLevel ?? 'basic',
    datasets: limits?.downloadableDatasets ?? [],
  };
}
