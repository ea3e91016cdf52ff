import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { noSpreadThenMembers } from './no-spread-then-members.js';

/**
 * The hot-path rule of eslint.config.js: which files it covers, what it reports, and the V8
 * behaviour it exists for (so a Node upgrade that fixes it shows up here).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RULE = 'ipdata/no-spread-then-members';
const eslint = new ESLint({ cwd: ROOT });

async function ruleOn(file: string): Promise<boolean> {
  const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  const entry = config.rules?.[RULE];
  const severity = Array.isArray(entry) ? entry[0] : entry;
  return severity !== undefined && severity !== 0 && severity !== 'off';
}

function problems(code: string): number {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { ipdata: { rules: { 'no-spread-then-members': noSpreadThenMembers } } },
        rules: { [RULE]: 'error' },
      },
    ],
    'snippet.ts',
  );
  return messages.filter((message) => message.ruleId === RULE).length;
}

describe('eslint: no object literal starting with a spread on hot paths', () => {
  it.each([
    'services/bff-en/src/public-api/accounting.ts',
    'services/metering/src/quota/quota.service.ts',
    'services/metering/src/ledger/usage-ledger.ts',
    'services/common/src/kafka/event-producer.ts',
    'services/auth/src/client/api-key-cache.ts',
  ])('is on for %s', async (file) => {
    expect(await ruleOn(file)).toBe(true);
  });

  it.each([
    'services/auth/src/app.ts',
    'services/bff-en/src/public-api/public-api.dispatcher.test.ts',
    'services/auth/src/client/api-key-cache.wiring.ts',
  ])('is off for %s (not per request)', async (file) => {
    expect(await ruleOn(file)).toBe(false);
  });

  it('reports a spread followed by members, and nothing else', () => {
    expect(problems('export const f = (r: object, s: number) => ({ ...r, s });')).toBe(1);
    expect(problems('export const f = (a: object, b: object) => ({ ...a, ...b });')).toBe(1);
    expect(problems('export const f = (r: object, s: number) => ({ s, ...r });')).toBe(0);
    expect(problems('export const f = (r: object) => ({ ...r });')).toBe(0);
    expect(problems('export const f = (r: object, s: number) => Object.assign({}, r, { s });')).toBe(0);
  });

  it('exists because this Node gives `{ ...x, more }` objects a hidden class each, and listed properties one', () => {
    const probe = `
      const spread = (r, s) => ({ ...r, s });
      const listed = (r, s) => ({ a: r.a, b: r.b, s });
      const assigned = (r, s) => Object.assign({}, r, { s });
      // After the inline cache has warmed up, as on a server: its first calls still share a class.
      const same = (make) => {
        for (let i = 0; i < 1000; i++) make({ a: i, b: i }, i);
        return %HaveSameMap(make({ a: 1, b: 2 }, 3), make({ a: 4, b: 5 }, 6));
      };
      console.log(JSON.stringify([same(spread), same(listed), same(assigned)]));
    `;
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', probe], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual([false, true, true]);
  });
});
