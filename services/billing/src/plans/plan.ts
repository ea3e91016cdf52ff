/** Catalogue vocabulary. The proto enums are mapped from these in the gRPC and Kafka adapters. */
export const KINDS = ['API_ACCESS', 'DATA_DOWNLOAD', 'VIP'] as const;
export type Kind = (typeof KINDS)[number];
export const TIERS = ['FREE', 'STANDARD', 'BUSINESS', 'ENTERPRISE'] as const;
export type Tier = (typeof TIERS)[number];
export const INTERVALS = ['MONTHLY', 'YEARLY'] as const;
export type Interval = (typeof INTERVALS)[number];
export const SUPPORT_LEVELS = ['basic', 'priority'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];
export const DATASETS = ['geolocation', 'privacy', 'asn'] as const;

export interface PlanLimits {
  includedLookupsPerMonth: number;
  /** Minor units per started 1,000 lookups above the allowance; 0 = hard cap. */
  overagePricePer1kMinor: number;
  supportLevel: SupportLevel;
  downloadableDatasets: readonly string[];
  /**
   * Hard cap per calendar month including overage (API plans with overage); undefined = no cap.
   * Optional so change records stored before the field existed still read as plans.
   */
  maxLookupsPerMonth?: number;
  /** Requests per second one API key may start; the catalogue loader fills the tier's default. */
  burstPerSecond?: number;
}

/**
 * Burst limit per API key when a plan does not set `burst_per_second` (made-up values, like the
 * prices): enough for interactive use on FREE, more headroom per paid tier.
 */
export const DEFAULT_BURST_PER_SECOND: Record<Tier, number> = { FREE: 10, STANDARD: 50, BUSINESS: 200, ENTERPRISE: 1_000 };

export interface Plan {
  id: string;
  name: string;
  kind: Kind;
  tier: Tier;
  interval: Interval;
  /** Price per interval in integer minor units of `currency`. */
  priceMinor: number;
  currency: string;
  limits: PlanLimits;
  selfCheckout: boolean;
  cardRequired: boolean;
  description: string;
}

const TIER_RANK: Record<Tier, number> = { FREE: 0, STANDARD: 1, BUSINESS: 2, ENTERPRISE: 3 };

/**
 * Orders plans of one kind: a higher tier is above a lower one; within a tier, yearly is above
 * monthly (it commits to more). Moving up is an upgrade (paid now, applied at once); moving
 * down is a downgrade (applied at period end).
 */
export function comparePlans(a: Plan, b: Plan): number {
  const byTier = TIER_RANK[a.tier] - TIER_RANK[b.tier];
  if (byTier !== 0) return byTier;
  return INTERVALS.indexOf(a.interval) - INTERVALS.indexOf(b.interval);
}

export function isFree(plan: Plan): boolean {
  return plan.tier === 'FREE';
}

/** A period of `interval` from `start`, clamping to the month's last day (Jan 31 + 1 month = Feb 28). */
export function addInterval(start: Date, interval: Interval): Date {
  const months = interval === 'MONTHLY' ? 1 : 12;
  const end = new Date(start.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}
