import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the "source" condition, so tests
// run against src/ without a build step (node runs dist/ through the default condition).
// No "module" condition: dependencies are loaded by Node itself, which cannot load some
// packages' extensionless "module" builds (@opentelemetry/api).
const conditions = ['source', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    reporters: ['default', './scripts/test/summary-reporter.ts'],
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['services/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Property tests run thousands of cases; on a loaded 2-core machine 5 s is too tight.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['services/*/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./scripts/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Services under test share the real topics (auth.user.v1, billing.subscription.v1, ...),
          // so one file's billing would react to another file's accounts: files run one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
