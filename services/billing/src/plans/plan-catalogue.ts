import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigFileError, NotFoundError } from '@ipdata/common';
import {
  DATASETS,
  DEFAULT_BURST_PER_SECOND,
  INTERVALS,
  KINDS,
  SUPPORT_LEVELS,
  TIERS,
  isFree,
  type Kind,
  type Plan,
  type SupportLevel,
} from './plan.js';

/** The catalogue file is wrong: the message names the file and every problem at once. */
export class CatalogueError extends ConfigFileError {
  constructor(source: string, problems: readonly string[]) {
    super('plan catalogue', source, problems);
    this.name = 'CatalogueError';
  }
}

/** The plans operators configure (config/plans.yaml), validated once at start. */
export class PlanCatalogue {
  private readonly byId: ReadonlyMap<string, Plan>;

  constructor(readonly plans: readonly Plan[]) {
    this.byId = new Map(plans.map((plan) => [plan.id, plan]));
  }

  static fromFile(path: string): PlanCatalogue {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CatalogueError(path, [`cannot read the file: ${error instanceof Error ? error.message : String(error)}`]);
    }
    return PlanCatalogue.fromYaml(text, path);
  }

  static fromYaml(text: string, source = '(inline)'): PlanCatalogue {
    let document: unknown;
    try {
      document = parse(text);
    } catch (error) {
      throw new CatalogueError(source, [`not valid YAML: ${error instanceof Error ? error.message : String(error)}`]);
    }
    return new PlanCatalogue(validateCatalogue(document, source));
  }

  find(id: string): Plan | undefined {
    return this.byId.get(id);
  }

  get(id: string): Plan {
    const plan = this.byId.get(id);
    if (!plan) throw new NotFoundError(`unknown plan: ${id}`, { reason: 'unknown_plan', details: { planId: id } });
    return plan;
  }

  /** The FREE plan of a kind (API access and download have one; VIP has none). */
  freePlan(kind: Kind): Plan | undefined {
    return this.plans.find((plan) => plan.kind === kind && isFree(plan));
  }
}

type Raw = Record<string, unknown>;

function validateCatalogue(document: unknown, source: string): Plan[] {
  const problems: string[] = [];
  const rawPlans = (document as Raw | null)?.['plans'];
  if (!Array.isArray(rawPlans) || rawPlans.length === 0) {
    throw new CatalogueError(source, ['top-level "plans" must be a non-empty list']);
  }
  const plans: Plan[] = [];
  rawPlans.forEach((raw: unknown, index) => {
    const where = `plans[${index}]${typeof (raw as Raw)?.['id'] === 'string' ? ` (${String((raw as Raw)['id'])})` : ''}`;
    const plan = validatePlan(raw, where, problems);
    if (plan) plans.push(plan);
  });
  checkAcrossPlans(plans, problems);
  if (problems.length > 0) throw new CatalogueError(source, problems);
  return plans;
}

function validatePlan(raw: unknown, where: string, problems: string[]): Plan | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${where}: must be a mapping of plan fields`);
    return undefined;
  }
  const plan = raw as Raw;
  const before = problems.length;
  const problem = (field: string, expected: string) =>
    problems.push(
      `${where}: ${field} ${plan[field] === undefined ? 'is missing' : `is ${JSON.stringify(plan[field])}`}, expected ${expected}`,
    );
  const text = (field: string, pattern?: RegExp) => {
    const value = plan[field];
    if (typeof value !== 'string' || value.trim() === '' || (pattern && !pattern.test(value))) {
      problem(field, pattern ? `a string matching ${String(pattern)}` : 'a non-empty string');
      return '';
    }
    return value;
  };
  const oneOf = <T extends string>(field: string, values: readonly T[]): T => {
    const value = typeof plan[field] === 'string' ? plan[field].toUpperCase() : undefined;
    const found = values.find((candidate) => candidate.toUpperCase() === value);
    if (!found) problem(field, `one of ${values.map((v) => v.toLowerCase()).join(', ')}`);
    return found ?? values[0]!;
  };
  const minor = (field: string) => {
    const value = plan[field];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      problem(field, 'a non-negative integer in minor units (no decimals)');
      return 0;
    }
    return value;
  };
  /** An optional whole number ≥ `min`; undefined when the field is absent. */
  const optionalCount = (field: string, min: number) => {
    const value = plan[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      problem(field, `an integer ≥ ${min}, or no value`);
      return undefined;
    }
    return value;
  };
  const flag = (field: string) => {
    if (typeof plan[field] !== 'boolean') problem(field, 'true or false');
    return plan[field] === true;
  };
  const datasets = () => {
    const value = plan['downloadable_datasets'];
    if (!Array.isArray(value) || value.some((item) => !(DATASETS as readonly unknown[]).includes(item))) {
      problem('downloadable_datasets', `a list of ${DATASETS.join(', ')}`);
      return [];
    }
    return value as string[];
  };
  const result: Plan = {
    id: text('id', /^[a-z0-9]+(-[a-z0-9]+)*$/),
    name: text('name'),
    kind: oneOf('kind', KINDS),
    tier: oneOf('tier', TIERS),
    interval: oneOf('interval', INTERVALS),
    priceMinor: minor('price_minor'),
    currency: text('currency', /^[A-Z]{3}$/),
    limits: {
      includedLookupsPerMonth: minor('included_lookups_per_month'),
      overagePricePer1kMinor: minor('overage_price_per_1k_minor'),
      supportLevel: oneOf<SupportLevel>('support_level', SUPPORT_LEVELS),
      downloadableDatasets: datasets(),
      maxLookupsPerMonth: optionalCount('max_lookups_per_month', 1),
      burstPerSecond: optionalCount('burst_per_second', 1),
    },
    selfCheckout: flag('self_checkout'),
    cardRequired: flag('card_required'),
    description: typeof plan['description'] === 'string' ? plan['description'] : '',
  };
  if (problems.length > before) return undefined;
  result.limits.burstPerSecond ??= DEFAULT_BURST_PER_SECOND[result.tier];
  if (result.limits.maxLookupsPerMonth === undefined) delete result.limits.maxLookupsPerMonth;
  const rule = (ok: boolean, message: string) => ok || problems.push(`${where}: ${message}`);
  const cap = result.limits.maxLookupsPerMonth;
  if (cap !== undefined) {
    // Without overage the included amount already is the cap; a second, different number would mislead.
    rule(
      result.limits.overagePricePer1kMinor > 0,
      'max_lookups_per_month needs overage_price_per_1k_minor > 0 (without overage the included amount is the cap)',
    );
    rule(
      cap >= result.limits.includedLookupsPerMonth,
      `max_lookups_per_month ${cap} must be ≥ included_lookups_per_month ${result.limits.includedLookupsPerMonth}`,
    );
  }
  if (isFree(result)) {
    rule(result.priceMinor === 0, 'a free plan must have price_minor 0');
    rule(!result.cardRequired, 'a free plan must not require a card');
    rule(result.limits.supportLevel === 'basic', 'a free plan has basic support');
  } else {
    rule(result.limits.supportLevel === 'priority', 'a paid plan has priority support');
    rule(!result.selfCheckout || result.priceMinor > 0, 'a self-checkout paid plan needs price_minor > 0');
    rule(!result.selfCheckout || result.cardRequired, 'a self-checkout paid plan requires a card');
  }
  return result;
}

function checkAcrossPlans(plans: readonly Plan[], problems: string[]): void {
  const seen = new Set<string>();
  for (const plan of plans) {
    if (seen.has(plan.id)) problems.push(`plan id ${plan.id} appears more than once`);
    seen.add(plan.id);
  }
  const currencies = new Set(plans.map((plan) => plan.currency));
  if (currencies.size > 1) problems.push(`every plan must use one currency, found ${[...currencies].join(', ')}`);
  for (const kind of KINDS) {
    const free = plans.filter((plan) => plan.kind === kind && isFree(plan));
    if (free.length > 1) problems.push(`${kind.toLowerCase()} has ${free.length} free plans, at most one is allowed`);
  }
  if (!plans.some((plan) => plan.kind === 'API_ACCESS' && isFree(plan))) {
    problems.push('an api_access plan with tier free is required (every new account gets it)');
  }
  for (const yearly of plans.filter((plan) => plan.interval === 'YEARLY' && plan.priceMinor > 0)) {
    const monthly = plans.find(
      (plan) => plan.kind === yearly.kind && plan.tier === yearly.tier && plan.interval === 'MONTHLY' && plan.priceMinor > 0,
    );
    if (monthly && yearly.priceMinor >= 12 * monthly.priceMinor) {
      problems.push(
        `${yearly.id}: yearly price ${yearly.priceMinor} must be cheaper than 12 × monthly (${monthly.id}) = ${12 * monthly.priceMinor}`,
      );
    }
  }
}
