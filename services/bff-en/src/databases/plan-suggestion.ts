import type { DownloadPlan } from './databases.ports.js';

/**
 * The names of the plans whose datasets include every missing one, cheapest first: by tier
 * (a sales-only Enterprise plan costs 0 in the catalogue but is the dearest), then by price.
 * Monthly and yearly variants share a name and are named once; the caller's own plan is left out.
 */
export function plansIncluding(missing: readonly string[], plans: readonly DownloadPlan[], currentPlanId = ''): string[] {
  const current = plans.find((plan) => plan.id === currentPlanId)?.name;
  const names: string[] = [];
  const fitting = plans
    .filter((plan) => missing.every((dataset) => plan.datasets.includes(dataset)))
    .sort((a, b) => a.tier - b.tier || a.monthlyPriceMinor - b.monthlyPriceMinor);
  for (const plan of fitting) {
    if (plan.name !== current && !names.includes(plan.name)) names.push(plan.name);
  }
  return names;
}

/** "a", "a and b", "a, b and c". */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;
}

/**
 * The 403 message: which plan the caller has, what the file needs that the plan lacks, and the
 * plans that include it, e.g. "Your plan (Free) does not include the privacy database. It is
 * included in: Business, Enterprise."
 */
export function planExclusionMessage(input: {
  database: string;
  missing: readonly string[];
  currentPlan: string;
  including: readonly string[];
}): string {
  const { database, missing, currentPlan, including } = input;
  const your = currentPlan === '' ? 'Your plan' : `Your plan (${currentPlan})`;
  const what =
    missing.length === 0 || (missing.length === 1 && missing[0] === database)
      ? `the ${database} database`
      : `the ${database} database (it carries ${listing(missing)} data)`;
  const where =
    including.length === 0 ? 'No self-service plan includes it; contact sales.' : `It is included in: ${including.join(', ')}.`;
  return `${your} does not include ${what}. ${where}`;
}
