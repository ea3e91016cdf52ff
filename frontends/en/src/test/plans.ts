import type { Plan } from '../api/web-api.types.js';

/** A billing catalogue plan (the free API plan unless `overrides` says otherwise). */
export function plan(overrides: Partial<Plan>): Plan {
  return {
    id: 'api-free',
    name: 'Free',
    kind: 'api',
    tier: 'free',
    interval: 'month',
    price_minor: 0,
    currency: 'USD',
    self_checkout: true,
    lookups_per_month: 50_000,
    overage_price_per_1k_minor: 0,
    support_level: 'basic',
    datasets: [],
    ...overrides,
  };
}
