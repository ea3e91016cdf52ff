// ESLint flat config for the whole repository: typescript-eslint with type information
// (tsconfig.check.json covers sources, tests and scripts; frontends/*/tsconfig.json the web apps),
// run by `make lint`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { noSpreadThenMembers } from './scripts/lint/no-spread-then-members.js';

// Drivers stay behind adapters (services/README.md, "Boundaries"): domain code states the small
// interface it needs and an adapter implements it with the driver, so the domain is tested
// without a broker or database and a driver change touches adapters only.
const DRIVER_MESSAGE =
  'Domain code imports no driver: declare the interface it needs and implement it in src/adapters/ (also allowed: app.ts, main.ts, client/, @ipdata/common; services/README.md, "Boundaries").';
const DRIVERS = ['mongoose', 'mongodb', 'ioredis', 'kafkajs'];

// Code that runs per request or per event, where an allocation's hidden class costs (see the rule).
const HOT_PATH_FILES = [
  'services/bff-en/src/public-api/**/*.ts',
  'services/bff-en/src/lookups/**/*.ts',
  'services/metering/src/**/*.ts',
  'services/common/src/kafka/**/*.ts',
  'services/common/src/outbox/**/*.ts',
  'services/common/src/http-edge/**/*.ts',
  'services/auth/src/client/**/*.ts',
  'services/lookup-engine/src/client/**/*.ts',
  'services/lookup-engine/src/lookup/**/*.ts',
  'services/stats/src/usage/**/*.ts',
];

const NO_DEFAULT_EXPORTS = [
  { selector: 'ExportDefaultDeclaration', message: 'Use a named export (no default exports).' },
  { selector: 'ExportSpecifier[exported.name="default"]', message: 'Use a named export (no default exports).' },
];

export default defineConfig(
  { ignores: ['**/dist/**', '**/node_modules/**', 'proto/gen/**', 'var/**', 'coverage/**', 'frontends/*/src/api/generated/**'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The web apps have their own program (DOM types, JSX): frontends/<face>/tsconfig.json.
        project: ['./tsconfig.check.json', './frontends/*/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // Named exports only: one name per thing across imports, greppable, renamed by tools.
      'no-restricted-syntax': ['error', ...NO_DEFAULT_EXPORTS],
    },
  },
  {
    // No import cycles anywhere (frontends, services, scripts): a cycle makes the load order
    // decide which module sees the other half-initialised, and it hides a missing seam (a plain
    // action, a type in its own module). Type-only imports are erased at build and do not count.
    // Workspace packages resolve to their sources (the "source" export condition, as tsc and
    // vitest do), so a cycle through another package's src/ is found too.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // The files the rule follows: without it import-x reads only .js/.mjs/.cjs modules.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // Resolutions are kept for the whole run (default: 30 s, then every import is resolved
      // again); a lint run is a fresh process, so nothing goes stale there.
      'import-x/cache': { lifetime: '∞' },
      // Installed packages cannot import ours back, so the rule does not read them: half its time
      // went to following react, redux and the drivers through their own files. Workspace packages
      // still count: they resolve to their real paths under services/ and frontends/.
      'import-x/ignore': ['/node_modules/'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ conditionNames: ['source', 'import', 'node', 'default'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // Domain folders: everything under services/<name>/src except the places that wire or wrap
    // drivers. client/ folders are exempt because a service's published gRPC client (the tuned
    // lookup client, @ipdata/auth/client) is an adapter by nature: it exists to hold a channel.
    files: ['services/*/src/**/*.ts'],
    ignores: [
      'services/common/**',
      'services/*/src/adapters/**',
      'services/*/src/client/**',
      'services/*/src/app.ts',
      'services/*/src/main.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DRIVERS.map((name) => ({ name, message: DRIVER_MESSAGE })),
          patterns: [
            { group: ['@grpc/*'], message: DRIVER_MESSAGE },
            { group: DRIVERS.map((name) => `${name}/*`), message: DRIVER_MESSAGE },
          ],
        },
      ],
      // The same for `await import('kafkajs')`, which no-restricted-imports does not see. This
      // block's no-restricted-syntax replaces the general one, so it repeats NO_DEFAULT_EXPORTS.
      'no-restricted-syntax': [
        'error',
        ...NO_DEFAULT_EXPORTS,
        {
          selector: `ImportExpression[source.value=/^(${DRIVERS.join('|')})($|[/])|^@grpc[/]/]`,
          message: DRIVER_MESSAGE,
        },
      ],
    },
  },
  {
    files: HOT_PATH_FILES,
    // Wiring read once at start.
    ignores: ['**/*.test.ts', '**/*.wiring.ts', 'services/lookup-engine/src/client/lookup-client.ts'],
    plugins: { ipdata: { rules: { 'no-spread-then-members': noSpreadThenMembers } } },
    rules: { 'ipdata/no-spread-then-members': 'error' },
  },
  {
    // Front ends: React's hooks rules, and the store's typed hooks (app hooks) instead of
    // react-redux's untyped ones, so every selector and dispatch is typed by the store.
    files: ['frontends/*/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useDispatch', 'useSelector'],
              message: 'Use the typed useAppDispatch / useAppSelector from src/store/hooks.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tools read these by their default export (vitest loads a reporter given by path that way).
    files: ['**/*.config.{js,mjs,ts}', 'scripts/test/summary-reporter.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Test harness and CLI scripts talk to the terminal.
    files: ['scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
