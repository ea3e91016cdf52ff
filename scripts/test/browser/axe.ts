import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, Result } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** Read once per process: ~550 KB of script injected into every checked page. */
let axeSource: string | undefined;

/** Impacts that fail a test (the issues' bar: no serious or critical violations). */
export const BLOCKING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/**
 * Runs axe-core in the page as it is now and returns its violations. The script goes in through
 * page.evaluate (the DevTools protocol), not a <script> tag, so the page's Content-Security-Policy
 * ('self' only) stays on while it is checked.
 */
export async function runAxe(page: Page): Promise<Result[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // A string: this project's TypeScript has no DOM types (node only); it runs in the page.
  const results = await page.evaluate<AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
  return results.violations;
}

/** The violations that fail a test. */
export function blockingViolations(violations: readonly Result[]): Result[] {
  return violations.filter((violation) => BLOCKING_IMPACTS.includes(violation.impact ?? null));
}

/** One line per violation with the first elements it names: readable in a test failure. */
export function describeViolations(violations: readonly Result[]): string {
  return violations
    .map((violation) => {
      const targets = violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ');
      return `${violation.impact ?? 'unknown'} ${violation.id}: ${violation.help} (${violation.nodes.length}× e.g. ${targets})`;
    })
    .join('\n');
}

/** Fails (throws) when axe finds serious or critical violations; returns every violation otherwise. */
export async function expectAccessible(page: Page): Promise<Result[]> {
  const violations = await runAxe(page);
  const blocking = blockingViolations(violations);
  if (blocking.length > 0)
    throw new Error(
      `axe: ${blocking.length} serious or critical violation(s) on ${page.url()}:\n${describeViolations(blocking)}`,
    );
  return violations;
}
