import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { UnavailableError } from '@ipdata/common';
import type { BillingServiceClient, ListPlansRequest, ListPlansResponse, Plan } from '@ipdata/proto/billing/v1/billing';
import { BillingInterval, PlanTier, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { describe, expect, it } from 'vitest';
import { GrpcDownloadPlans } from './billing-plans.adapter.js';

function plan(id: string, kind: SubscriptionKind, interval: BillingInterval, priceMinor: number, datasets: string[]): Plan {
  return {
    id,
    name: id.split('-')[1] ?? id,
    kind,
    tier: PlanTier.PLAN_TIER_BUSINESS,
    interval,
    priceMinor,
    currency: 'USD',
    limits: {
      lookupsPerMonth: 0,
      overagePricePer1kMinor: 0,
      currency: 'USD',
      supportLevel: 'priority',
      downloadableDatasets: datasets,
      maxLookupsPerMonth: 0,
      burstPerSecond: 0,
    },
    selfCheckout: true,
    cardRequired: true,
    description: '',
  };
}

/** A stand-in for the generated client's listPlans (callback style, as grpc-js calls it). */
function fakeClient(answers: Array<ListPlansResponse | 'down'>) {
  const requests: ListPlansRequest[] = [];
  const client = {
    listPlans(
      request: ListPlansRequest,
      _metadata: Metadata,
      _options: unknown,
      callback: (error: ServiceError | null, response?: ListPlansResponse) => void,
    ) {
      requests.push(request);
      const answer = answers.shift();
      if (answer === 'down' || answer === undefined) {
        callback(Object.assign(new Error('down'), { code: status.UNAVAILABLE, details: 'down', metadata: new Metadata() }));
      } else callback(null, answer);
    },
  } as unknown as BillingServiceClient;
  return { client, requests };
}

const CATALOGUE: ListPlansResponse = {
  plans: [
    plan(
      'download-business-yearly',
      SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD,
      BillingInterval.BILLING_INTERVAL_YEARLY,
      299_000,
      ['geolocation', 'privacy', 'asn'],
    ),
    plan(
      'api-business-monthly',
      SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS,
      BillingInterval.BILLING_INTERVAL_MONTHLY,
      19_900,
      [],
    ),
  ],
};

describe('GrpcDownloadPlans', () => {
  it('asks for data-download plans, keeps only those, and prices yearly plans per month', async () => {
    const { client, requests } = fakeClient([CATALOGUE]);
    const plans = await new GrpcDownloadPlans(client).downloadPlans();
    expect(requests[0]?.kind).toBe(SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD);
    expect(plans).toEqual([
      {
        id: 'download-business-yearly',
        name: 'business',
        tier: PlanTier.PLAN_TIER_BUSINESS,
        monthlyPriceMinor: 24_917,
        datasets: ['geolocation', 'privacy', 'asn'],
      },
    ]);
  });

  it('answers from its cache within the TTL, and does not cache a failure', async () => {
    let now = 0;
    const { client, requests } = fakeClient(['down', CATALOGUE, CATALOGUE]);
    const plans = new GrpcDownloadPlans(client, { ttlMs: 1_000, now: () => now });
    await expect(plans.downloadPlans()).rejects.toBeInstanceOf(UnavailableError);
    await plans.downloadPlans();
    now = 999;
    await plans.downloadPlans();
    expect(requests).toHaveLength(2);
    now = 2_000;
    await plans.downloadPlans();
    expect(requests).toHaveLength(3);
  });
});
