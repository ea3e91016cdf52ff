import type { Plan } from '../../api/web-api.types.js';

export type PlanKind = 'api' | 'download';
export type Interval = 'month' | 'year';

const TIERS: readonly Plan['tier'][] = ['free', 'standard', 'business', 'enterprise'];

/** The spec's plan names: FREE, Standard, Business, Enterprise. */
export const planName = (plan: Plan): string => (plan.tier === 'free' ? 'FREE' : plan.name);

/**
 * The plans a tab shows for the chosen billing period, one per tier in the spec's order. A tier
 * without a plan of that period shows its other one: FREE is the same every month, and a plan
 * sold through sales (Enterprise data download is yearly only) is still there to ask about.
 */
export function plansShown(plans: readonly Plan[], kind: PlanKind, interval: Interval): Plan[] {
  const ofKind = plans.filter((plan) => plan.kind === kind);
  return TIERS.flatMap((tier) => {
    const ofTier = ofKind.filter((plan) => plan.tier === tier);
    const plan = ofTier.find((entry) => entry.interval === interval) ?? ofTier[0];
    return plan ? [plan] : [];
  });
}

/** What a plan costs per month in minor units (a yearly price spread over twelve months). */
export const monthlyMinor = (plan: Plan): number => (plan.interval === 'year' ? plan.price_minor / 12 : plan.price_minor);

/** "$49", "$40.83": whole amounts without cents. */
export function money(minor: number, currency: string): string {
  const whole = Math.round(minor) % 100 === 0;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency || 'USD',
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(whole ? 0 : 2)} ${currency}`;
  }
}

/** The most a yearly plan saves against twelve monthly payments, in whole percent (0 when none). */
export function yearlySaving(plans: readonly Plan[], kind: PlanKind): number {
  let best = 0;
  for (const yearly of plans.filter((plan) => plan.kind === kind && plan.interval === 'year' && plan.price_minor > 0)) {
    const monthly = plans.find(
      (plan) => plan.kind === kind && plan.tier === yearly.tier && plan.interval === 'month' && plan.price_minor > 0,
    );
    if (monthly) best = Math.max(best, Math.round((1 - yearly.price_minor / (monthly.price_minor * 12)) * 100));
  }
  return best;
}

const TIER_RANK: Readonly<Record<Plan['tier'], number>> = { free: 0, standard: 1, business: 2, enterprise: 3 };

/** billing's order of plans: tier first, then monthly below yearly (negative: `a` is the cheaper move). */
export function comparePlans(a: Plan, b: Plan): number {
  const interval = (plan: Plan) => (plan.interval === 'year' ? 1 : 0);
  return TIER_RANK[a.tier] - TIER_RANK[b.tier] || interval(a) - interval(b);
}

/** A move down from a paid plan: billing applies it at the end of the paid period, not through a checkout. */
export const isDowngrade = (chosen: Plan, current: Plan | undefined): boolean =>
  current !== undefined && current.tier !== 'free' && comparePlans(chosen, current) < 0;
