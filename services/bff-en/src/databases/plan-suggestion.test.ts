import { PlanTier } from '@ipdata/proto/events/v1/billing';
import { describe, expect, it } from 'vitest';
import type { DownloadPlan } from './databases.ports.js';
import { listing, planExclusionMessage, plansIncluding } from './plan-suggestion.js';

// The default catalogue's download plans (services/billing/config/plans.yaml), in a shuffled order.
const PLANS: DownloadPlan[] = [
  {
    id: 'download-enterprise-yearly',
    name: 'Enterprise',
    tier: PlanTier.PLAN_TIER_ENTERPRISE,
    monthlyPriceMinor: 0,
    datasets: ['geolocation', 'privacy', 'asn'],
  },
  {
    id: 'download-business-yearly',
    name: 'Business',
    tier: PlanTier.PLAN_TIER_BUSINESS,
    monthlyPriceMinor: 24_917,
    datasets: ['geolocation', 'privacy', 'asn'],
  },
  {
    id: 'download-standard-monthly',
    name: 'Standard',
    tier: PlanTier.PLAN_TIER_STANDARD,
    monthlyPriceMinor: 9_900,
    datasets: ['geolocation', 'asn'],
  },
  { id: 'download-free', name: 'Free', tier: PlanTier.PLAN_TIER_FREE, monthlyPriceMinor: 0, datasets: ['asn'] },
  {
    id: 'download-business-monthly',
    name: 'Business',
    tier: PlanTier.PLAN_TIER_BUSINESS,
    monthlyPriceMinor: 29_900,
    datasets: ['geolocation', 'privacy', 'asn'],
  },
  {
    id: 'download-standard-yearly',
    name: 'Standard',
    tier: PlanTier.PLAN_TIER_STANDARD,
    monthlyPriceMinor: 8_250,
    datasets: ['geolocation', 'asn'],
  },
];

describe('plansIncluding', () => {
  it('names the plans with every missing dataset, cheapest first, each name once', () => {
    expect(plansIncluding(['privacy'], PLANS, 'download-free')).toEqual(['Business', 'Enterprise']);
    expect(plansIncluding(['geolocation'], PLANS, 'download-free')).toEqual(['Standard', 'Business', 'Enterprise']);
    // The complete file needs both: Standard has geolocation but not privacy.
    expect(plansIncluding(['geolocation', 'privacy'], PLANS, 'download-standard-monthly')).toEqual(['Business', 'Enterprise']);
  });

  it("ranks by tier before price (a sales-only plan's price is 0) and leaves out the caller's own plan", () => {
    expect(plansIncluding(['asn'], PLANS, '')).toEqual(['Free', 'Standard', 'Business', 'Enterprise']);
    expect(plansIncluding(['asn'], PLANS, 'download-standard-yearly')).toEqual(['Free', 'Business', 'Enterprise']);
  });

  it('names none when no plan has the dataset', () => {
    expect(plansIncluding(['weather'], PLANS, 'download-free')).toEqual([]);
  });
});

describe('planExclusionMessage', () => {
  it('names the plan, the database and the plans that include it', () => {
    expect(
      planExclusionMessage({
        database: 'privacy',
        missing: ['privacy'],
        currentPlan: 'Free',
        including: ['Business', 'Enterprise'],
      }),
    ).toBe('Your plan (Free) does not include the privacy database. It is included in: Business, Enterprise.');
  });

  it('says which data of a combined file the plan lacks, and what to do when no plan has it', () => {
    expect(
      planExclusionMessage({ database: 'complete', missing: ['geolocation', 'privacy'], currentPlan: '', including: [] }),
    ).toBe(
      'Your plan does not include the complete database (it carries geolocation and privacy data). No self-service plan includes it; contact sales.',
    );
    expect(listing(['a', 'b', 'c'])).toBe('a, b and c');
    expect(listing([])).toBe('');
  });
});
