import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildBillingService } from '../app.js';
import { DEFAULT_CATALOGUE_FILE, loadBillingConfig } from '../config.js';
import { CatalogueError, PlanCatalogue } from './plan-catalogue.js';

const defaultYaml = readFileSync(DEFAULT_CATALOGUE_FILE, 'utf8');
/** The least a test process needs besides the catalogue (no production checks, no development values). */
const TEST_ENV = {
  APP_ENV: 'test',
  PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret-of-32-characters',
  CHECKOUT_RETURN_ORIGINS: 'https://app.example.test',
};

function problemsOf(yaml: string): string {
  try {
    PlanCatalogue.fromYaml(yaml, 'plans.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueError);
    return (error as Error).message;
  }
  throw new Error('the catalogue was accepted');
}

describe('plan catalogue', () => {
  it('loads the default catalogue: FREE 50,000 lookups without card, every tier, Enterprise by sales, VIP', () => {
    const catalogue = PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE);
    expect(defaultYaml).toMatch(/DEFAULT PLAN CATALOGUE — THE PRICES AND QUOTAS BELOW ARE MADE UP/);
    expect(catalogue.freePlan('API_ACCESS')).toMatchObject({
      id: 'api-free',
      priceMinor: 0,
      cardRequired: false,
      limits: { includedLookupsPerMonth: 50_000, supportLevel: 'basic' },
    });
    expect(catalogue.freePlan('DATA_DOWNLOAD')?.id).toBe('download-free');
    expect(catalogue.freePlan('VIP')).toBeUndefined();
    for (const tier of ['FREE', 'STANDARD', 'BUSINESS', 'ENTERPRISE'] as const) {
      expect(catalogue.plans.some((plan) => plan.kind === 'API_ACCESS' && plan.tier === tier)).toBe(true);
      expect(catalogue.plans.some((plan) => plan.kind === 'DATA_DOWNLOAD' && plan.tier === tier)).toBe(true);
    }
    expect(catalogue.plans.filter((plan) => plan.tier === 'ENTERPRISE').every((plan) => !plan.selfCheckout)).toBe(true);
    expect(catalogue.plans.filter((plan) => plan.tier !== 'FREE').every((plan) => plan.limits.supportLevel === 'priority')).toBe(
      true,
    );
    expect(catalogue.get('vip-yearly').priceMinor).toBeLessThan(12 * catalogue.get('vip-monthly').priceMinor);
  });

  it('names every problem of a bad file at once', () => {
    const bad = defaultYaml
      .replace('price_minor: 4900', 'price_minor: 49.5')
      .replace('price_minor: 99000', 'price_minor: 999000')
      .replace('tier: business\n    interval: monthly', 'tier: gold\n    interval: monthly')
      .replace('downloadable_datasets: [asn]', 'downloadable_datasets: [asn, weather]')
      .replace('id: vip-yearly', 'id: vip-monthly');
    const message = problemsOf(bad);
    expect(message).toContain('invalid plan catalogue plans.yaml (5 problems)');
    expect(message).toContain(
      'plans[1] (api-standard-monthly): price_minor is 49.5, expected a non-negative integer in minor units',
    );
    expect(message).toContain(
      'plans[3] (api-business-monthly): tier is "gold", expected one of free, standard, business, enterprise',
    );
    expect(message).toContain(
      'plans[7] (download-free): downloadable_datasets is ["asn","weather"], expected a list of geolocation, privacy, asn',
    );
    expect(message).toContain('plan id vip-monthly appears more than once');
    expect(message).toContain(
      'download-standard-yearly: yearly price 999000 must be cheaper than 12 × monthly (download-standard-monthly) = 118800',
    );
  });

  it('enforces the rules of free and paid plans', () => {
    expect(problemsOf('plans: []')).toContain('top-level "plans" must be a non-empty list');
    expect(problemsOf('plans: [oops')).toContain('not valid YAML');
    const freeWithCard = defaultYaml.replace(
      'card_required: false\n    description: 50,000',
      'card_required: true\n    description: 50,000',
    );
    expect(problemsOf(freeWithCard)).toContain('plans[0] (api-free): a free plan must not require a card');
    const noFreeApi = defaultYaml.replace(
      'tier: free\n    interval: monthly\n    price_minor: 0\n    currency: USD\n    included_lookups_per_month: 50000',
      'tier: standard\n    interval: monthly\n    price_minor: 0\n    currency: USD\n    included_lookups_per_month: 50000',
    );
    const message = problemsOf(noFreeApi);
    expect(message).toContain('an api_access plan with tier free is required');
    expect(message).toContain('plans[0] (api-free): a paid plan has priority support');
  });

  it('reads the hard cap and the burst limit, filling the burst from the tier when a plan has none', () => {
    const catalogue = PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE);
    expect(catalogue.get('api-free').limits).toMatchObject({ includedLookupsPerMonth: 50_000, burstPerSecond: 10 });
    expect(catalogue.get('api-free').limits.maxLookupsPerMonth).toBeUndefined();
    expect(catalogue.get('api-standard-monthly').limits).toMatchObject({ maxLookupsPerMonth: 1_000_000, burstPerSecond: 50 });
    expect(catalogue.get('api-enterprise-yearly').limits.maxLookupsPerMonth).toBeUndefined();
    const withoutBurst = PlanCatalogue.fromYaml(defaultYaml.replaceAll(/\n {4}burst_per_second: \d+/g, ''));
    expect(withoutBurst.get('api-free').limits.burstPerSecond).toBe(10);
    expect(withoutBurst.get('api-business-monthly').limits.burstPerSecond).toBe(200);
    expect(withoutBurst.get('download-free').limits.burstPerSecond).toBe(10);
  });

  it('refuses a hard cap below the included amount, a cap without overage and a bad burst', () => {
    const message = problemsOf(
      defaultYaml
        .replace('max_lookups_per_month: 1000000', 'max_lookups_per_month: 1000')
        .replace(
          'overage_price_per_1k_minor: 0\n    burst_per_second: 10',
          'overage_price_per_1k_minor: 0\n    max_lookups_per_month: 60000',
        )
        .replace('burst_per_second: 200', 'burst_per_second: 0.5'),
    );
    expect(message).toContain('(3 problems)');
    expect(message).toContain(
      'plans[1] (api-standard-monthly): max_lookups_per_month 1000 must be ≥ included_lookups_per_month 250000',
    );
    expect(message).toContain('plans[0] (api-free): max_lookups_per_month needs overage_price_per_1k_minor > 0');
    expect(message).toContain('plans[3] (api-business-monthly): burst_per_second is 0.5, expected an integer ≥ 1, or no value');
  });

  it('stops the service from being built with a bad catalogue, naming the file and the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-catalogue-'));
    const file = join(dir, 'plans.yaml');
    writeFileSync(
      file,
      defaultYaml.replace(
        'currency: USD\n    included_lookups_per_month: 250000',
        'currency: EUR\n    included_lookups_per_month: 250000',
      ),
    );
    const config = loadBillingConfig({ ...TEST_ENV, PLAN_CATALOGUE_FILE: file });
    expect(() => buildBillingService(config, { logger: pino({ level: 'silent' }) })).toThrow(
      `invalid plan catalogue ${file} (1 problem):\n  every plan must use one currency, found USD, EUR`,
    );
    expect(() =>
      buildBillingService(loadBillingConfig({ ...TEST_ENV, PLAN_CATALOGUE_FILE: join(dir, 'missing.yaml') }), {
        logger: pino({ level: 'silent' }),
      }),
    ).toThrow(/invalid plan catalogue .*missing\.yaml \(1 problem\):\n {2}cannot read the file: ENOENT/);
  });

  it('makes the billing process exit 1 with the problems in its fatal log line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-catalogue-'));
    const file = join(dir, 'plans.yaml');
    writeFileSync(file, 'plans:\n  - id: api-free\n');
    const main = fileURLToPath(new URL('../main.ts', import.meta.url));
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--conditions', 'source', '--import', 'tsx', main],
        {
          env: { ...process.env, ...TEST_ENV, PLAN_CATALOGUE_FILE: file, LOG_LEVEL: 'info' },
          timeout: 30_000,
        },
        (error, stdout) => resolve({ code: error ? (error.code as number | null) : 0, stdout }),
      );
    });
    expect(result.code).toBe(1);
    const fatal = result.stdout.split('\n').find((line) => line.includes('"level":"fatal"'));
    expect(fatal).toContain(`failed to start: invalid plan catalogue ${file}`);
    expect(fatal).toContain('plans[0] (api-free): name is missing, expected a non-empty string');
  }, 40_000);
});
