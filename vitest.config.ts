import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the "source" condition, so tests
// run against src/ without a build step (node runs dist/ through the default condition).
// No "module" condition: dependencies are loaded by Node itself, which cannot load some
// packages' extensionless "module" builds (@opentelemetry/api).
const conditions = ['source', 'node', 'development|production'];

// Test files of the `system` project: tests of the one shared system of the run (lookup engine,
// auth, billing, mail sink, bff-en as processes; `await useTestSystem()` in beforeAll). Only those:
// a test that stops the broker or Redis (metering's usage-ledger and quota tests) stays in
// `integration`, which runs before the system starts, so the system never sees an outage it did
// not ask for (an auth consumer stuck after a broker restart failed a run). Add new system tests
// here, e.g. 'frontends/*/e2e/**/*.test.ts' and 'services/bff-cn/test/**/*.test.ts'.
const SYSTEM_FILES = [
  'services/bff-en/test/public-api.test.ts',
  'services/bff-en/test/openapi-contract.test.ts',
  'services/bff-en/test/usage-events.test.ts',
  'services/bff-en/test/demo-account.test.ts',
  'services/bff-en/test/databases.test.ts',
  'services/bff-en/test/web-api-contract.test.ts',
  'services/stats/test/usage-end-to-end.test.ts',
  // The web apps end to end in Chromium, against the system's BFFs serving the built apps.
  'frontends/*/e2e/**/*.test.ts',
];

// Integration files another lane runs (scripts/test/run-vitest-lanes.sh: comma-separated globs).
const LANE_EXCLUDE = (process.env['TEST_LANE_EXCLUDE'] ?? '').split(',').filter(Boolean);

/** What `integration` and `system` share: the real stack, one file at a time. */
const integrationOptions = {
  environment: 'node' as const,
  globalSetup: ['./scripts/test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Services under test share the real topics (auth.user.v1, billing.subscription.v1, ...),
  // so one file's billing would react to another file's accounts: files run one at a time.
  fileParallelism: false,
  // One module graph for all files of the run (they run one after another anyway): the service
  // code is imported once instead of once per file, which cost ~5 of the run's ~25 minutes.
  isolate: false,
};

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
        // The web apps' unit and component tests (frontends/*/src): a browser-like DOM (jsdom)
        // and React's JSX transform; no stack. Runs with `unit` (group 0).
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['frontends/*/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./scripts/test/web-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          ...integrationOptions,
          name: 'integration',
          include: ['services/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SYSTEM_FILES, ...LANE_EXCLUDE],
          // After `unit`. Not 0: vitest runs groupOrder-0 projects without file parallelism last.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          ...integrationOptions,
          name: 'system',
          include: SYSTEM_FILES,
          // After every `integration` file: the shared system (scripts/test/system) must not see
          // the accounts of their harnesses (see scripts/test/system/index.ts).
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
