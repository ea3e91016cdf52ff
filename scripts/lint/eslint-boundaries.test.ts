import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundary rules of eslint.config.js (services/README.md, "Boundaries"), checked on the real
 * config: which files they cover, and that they catch a driver import and a default export.
 * Only the two rules under test run on the snippets, so no type information is needed.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

type RuleEntry = Linter.RuleEntry | undefined;

async function rulesFor(file: string): Promise<{ imports: RuleEntry; syntax: RuleEntry }> {
  const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  return { imports: config.rules?.['no-restricted-imports'], syntax: config.rules?.['no-restricted-syntax'] };
}

function enabled(entry: RuleEntry): boolean {
  const severity = Array.isArray(entry) ? entry[0] : entry;
  return severity !== undefined && severity !== 0 && severity !== 'off';
}

/** Lints `code` as if it were `file`, with only the two boundary rules as configured for that file. */
async function lint(file: string, code: string): Promise<string[]> {
  const { imports, syntax } = await rulesFor(file);
  const rules: Linter.RulesRecord = {};
  if (imports !== undefined) rules['no-restricted-imports'] = imports;
  if (syntax !== undefined) rules['no-restricted-syntax'] = syntax;
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules }], file);
  return messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

const DOMAIN_FILES = [
  'services/lookup-engine/src/lookup/ip-info.ts',
  'services/auth/src/accounts/account.service.ts',
  'services/billing/src/subscriptions/subscription.service.ts',
  'services/stats/src/usage/usage.rollup.ts',
  'services/auth/src/accounts/account.service.test.ts',
];
const ADAPTER_FILES = [
  'services/billing/src/adapters/mongo/order.repository.ts',
  'services/auth/src/app.ts',
  'services/auth/src/main.ts',
  'services/lookup-engine/src/client/lookup-client.ts',
  'services/common/src/kafka/kafka-client.ts',
  'scripts/create-topics.ts',
];

describe('eslint boundaries: drivers stay out of domain folders', () => {
  it.each(DOMAIN_FILES)('%s may not import a driver', async (file) => {
    for (const driver of ['mongoose', 'mongodb', 'ioredis', 'kafkajs', '@grpc/grpc-js', '@grpc/proto-loader']) {
      const problems = await lint(file, `import { x } from '${driver}';\nexport const y = x;\n`);
      expect(problems, driver).toEqual([expect.stringMatching(/^no-restricted-imports: .*adapters/)]);
    }
    const typeOnly = await lint(file, `import type { Redis } from 'ioredis';\nexport type R = Redis;\n`);
    expect(typeOnly).toHaveLength(1);
    const subpath = await lint(file, `import { ObjectId } from 'mongodb/lib/bson';\nexport const o = ObjectId;\n`);
    expect(subpath).toHaveLength(1);
    for (const driver of ['kafkajs', 'mongodb/lib/bson', '@grpc/grpc-js']) {
      const dynamic = await lint(file, `export const load = () => import('${driver}');\n`);
      expect(dynamic, driver).toEqual([expect.stringMatching(/^no-restricted-syntax: .*adapters/)]);
    }
    expect(await lint(file, `export const load = () => import('kafkajs-helpers');\n`)).toEqual([]);
  });

  it.each(DOMAIN_FILES)('%s may import common, proto and its own modules', async (file) => {
    const code = [
      `import { errorText } from '@ipdata/common';`,
      `import { LookupRequest } from '@ipdata/proto/lookup/v1/lookup';`,
      `import { z } from 'zod';`,
      `import { helper } from './helper.js';`,
      `export const all = [errorText, LookupRequest, z, helper];`,
    ].join('\n');
    expect(await lint(file, code)).toEqual([]);
  });

  it.each(ADAPTER_FILES)('%s may import drivers', async (file) => {
    const code = `import { Kafka } from 'kafkajs';\nimport { Server } from '@grpc/grpc-js';\nexport const all = [Kafka, Server];\n`;
    expect(enabled((await rulesFor(file)).imports)).toBe(false);
    expect(await lint(file, code)).toEqual([]);
  });
});

describe('eslint boundaries: named exports only', () => {
  it.each([...DOMAIN_FILES, ...ADAPTER_FILES, 'scripts/test/global-setup.ts'])('%s refuses a default export', async (file) => {
    expect(await lint(file, `export default function f(): number {\n  return 1;\n}\n`)).toEqual([
      'no-restricted-syntax: Use a named export (no default exports).',
    ]);
    expect(await lint(file, `const f = 1;\nexport { f as default };\n`)).toHaveLength(1);
    expect(await lint(file, `export const f = 1;\n`)).toEqual([]);
  });

  it.each(['eslint.config.js', 'vitest.config.ts', 'frontends/en/vite.config.ts', 'scripts/test/summary-reporter.ts'])(
    '%s is read by a tool through its default export and is exempt',
    async (file) => {
      expect(enabled((await rulesFor(file)).syntax)).toBe(false);
    },
  );
});
