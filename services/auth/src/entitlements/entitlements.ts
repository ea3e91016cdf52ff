import {
  PlanTier,
  SubscriptionChange,
  SubscriptionKind,
  type PlanLimits,
  type SubscriptionChanged,
} from '@ipdata/proto/events/v1/billing';

/** auth's own copy of an account's latest subscription per kind (from billing.subscription.v1). */
export interface SubscriptionState {
  accountId: string;
  kind: SubscriptionKind;
  subscriptionId: string;
  change: SubscriptionChange;
  planId: string;
  tier: PlanTier;
  limits: PlanLimits;
  periodEnd: Date | undefined;
  /** Time of the event that produced this state; older events never overwrite newer ones. */
  eventTime: Date;
  eventId: string;
}

export interface SubscriptionRepository {
  /** Stores the state unless a newer event for the same (account, kind) is already stored. */
  applyIfNewer(state: SubscriptionState): Promise<boolean>;
  forAccount(accountId: string): Promise<SubscriptionState[]>;
}

/** The free tier every account has until billing says otherwise (spec: 50,000 lookups a month). */
export const FREE_LIMITS: PlanLimits = {
  lookupsPerMonth: 50_000,
  overagePricePer1kMinor: 0,
  currency: '',
  supportLevel: 'basic',
  downloadableDatasets: [],
  // No overage on FREE, so no cap beyond the included amount.
  maxLookupsPerMonth: 0,
  // Same as the catalogue's api-free plan, so an account billing has not told us about yet is limited alike.
  burstPerSecond: 10,
};

const KIND_NAME: Partial<Record<SubscriptionKind, string>> = {
  [SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS]: 'api',
  [SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD]: 'download',
  [SubscriptionKind.SUBSCRIPTION_KIND_VIP]: 'vip',
};

const TIER_NAME: Partial<Record<PlanTier, string>> = {
  [PlanTier.PLAN_TIER_FREE]: 'free',
  [PlanTier.PLAN_TIER_STANDARD]: 'standard',
  [PlanTier.PLAN_TIER_BUSINESS]: 'business',
  [PlanTier.PLAN_TIER_ENTERPRISE]: 'enterprise',
};

export function stateFromEvent(event: SubscriptionChanged, eventId: string, eventTime: Date): SubscriptionState {
  return {
    accountId: event.accountId,
    kind: event.kind,
    subscriptionId: event.subscriptionId,
    change: event.change,
    planId: event.planId,
    tier: event.tier,
    limits: event.limits ?? FREE_LIMITS,
    periodEnd: event.periodEnd,
    eventTime,
    eventId,
  };
}

/**
 * A subscription grants its entitlement while it is not canceled and its paid period has not
 * ended. A scheduled cancel or downgrade keeps the current plan until the period ends.
 */
export function isActive(state: SubscriptionState, now: Date): boolean {
  if (state.change === SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED) return false;
  return state.periodEnd === undefined || state.periodEnd.getTime() > now.getTime();
}

function isPaid(state: SubscriptionState): boolean {
  return state.tier !== PlanTier.PLAN_TIER_FREE && state.tier !== PlanTier.PLAN_TIER_UNSPECIFIED;
}

export interface Entitlements {
  /** The spec's `auth` list (README "The auth list"). */
  auth: string[];
  /** The spec's payService: paid subscription kinds. */
  payService: string[];
}

/**
 * `auth` = the entitlements the account holds:
 * - `api:<tier>` for its API-access plan; `api:free` when it has none (every account has the free tier);
 * - `download:<tier>` for a data-download plan;
 * - `vip` for a face A VIP subscription (any tier);
 * - `partner` for cooperation (partner) accounts.
 */
export function entitlementsOf(states: readonly SubscriptionState[], options: { partner: boolean; now: Date }): Entitlements {
  const active = states.filter((state) => isActive(state, options.now));
  const auth: string[] = [];
  const payService: string[] = [];
  const api = active.find((state) => state.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS);
  auth.push(`api:${(api && TIER_NAME[api.tier]) ?? 'free'}`);
  const download = active.find((state) => state.kind === SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD);
  if (download) auth.push(`download:${TIER_NAME[download.tier] ?? 'free'}`);
  if (active.some((state) => state.kind === SubscriptionKind.SUBSCRIPTION_KIND_VIP)) auth.push('vip');
  if (options.partner) auth.push('partner');
  for (const state of active) {
    const name = KIND_NAME[state.kind];
    if (name && isPaid(state) && !payService.includes(name)) payService.push(name);
  }
  return { auth, payService };
}

export interface ApiPlan {
  tier: PlanTier;
  planId: string;
  limits: PlanLimits;
  periodEnd: Date | undefined;
}

/** The plan an API key works under: the account's active API-access subscription, else FREE. */
export function apiPlanOf(states: readonly SubscriptionState[], now: Date): ApiPlan {
  const api = states.find((state) => state.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS && isActive(state, now));
  if (!api) return { tier: PlanTier.PLAN_TIER_FREE, planId: '', limits: FREE_LIMITS, periodEnd: undefined };
  return { tier: api.tier, planId: api.planId, limits: api.limits, periodEnd: api.periodEnd };
}
