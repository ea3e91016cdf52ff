import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line "vitest: N passed, N failed[, N skipped]" after vitest's own
 * summary, the plain form CI reads in any language.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
    }
    failed += unhandledErrors.length;
    const skippedText = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${skippedText}\n`);
  }
}
