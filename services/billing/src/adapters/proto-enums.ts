import { BillingInterval, PlanLimits, PlanTier, SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { Interval, Kind, PlanLimits as DomainLimits, Tier } from '../plans/plan.js';
import type { ChangeKind } from '../subscriptions/subscription.js';

/** Domain vocabulary ↔ the proto enums shared by the gRPC API and the events. */
export const toProtoKind = (kind: Kind): SubscriptionKind => SubscriptionKind[`SUBSCRIPTION_KIND_${kind}`];
export const toProtoTier = (tier: Tier): PlanTier => PlanTier[`PLAN_TIER_${tier}`];
export const toProtoInterval = (interval: Interval): BillingInterval => BillingInterval[`BILLING_INTERVAL_${interval}`];
export const toProtoChange = (change: ChangeKind): SubscriptionChange => SubscriptionChange[`SUBSCRIPTION_CHANGE_${change}`];

export function fromProtoKind(kind: SubscriptionKind): Kind | undefined {
  switch (kind) {
    case SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS:
      return 'API_ACCESS';
    case SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD:
      return 'DATA_DOWNLOAD';
    case SubscriptionKind.SUBSCRIPTION_KIND_VIP:
      return 'VIP';
    default:
      return undefined;
  }
}

export function fromProtoInterval(interval: BillingInterval): Interval | undefined {
  if (interval === BillingInterval.BILLING_INTERVAL_MONTHLY) return 'MONTHLY';
  if (interval === BillingInterval.BILLING_INTERVAL_YEARLY) return 'YEARLY';
  return undefined;
}

export function toProtoLimits(limits: DomainLimits, currency: string): PlanLimits {
  return PlanLimits.fromPartial({
    lookupsPerMonth: limits.includedLookupsPerMonth,
    overagePricePer1kMinor: limits.overagePricePer1kMinor,
    currency,
    supportLevel: limits.supportLevel,
    downloadableDatasets: [...limits.downloadableDatasets],
    // 0 means "not set" on the wire: no cap beyond the overage rule / the API's default burst.
    maxLookupsPerMonth: limits.overagePricePer1kMinor > 0 ? (limits.maxLookupsPerMonth ?? 0) : 0,
    burstPerSecond: limits.burstPerSecond ?? 0,
  });
}
