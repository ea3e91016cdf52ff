import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `import-x/no-cycle` of eslint.config.js (services/README.md, "Boundaries"), on the real config:
 * which files it covers, and that its settings (TypeScript files, `.js` specifiers naming `.ts`
 * sources) still let it see a cycle. The modules are written to a temporary folder, because
 * the rule follows imports on disk.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });
const dir = mkdtempSync(join(tmpdir(), 'no-cycle-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function configFor(file: string): Promise<Linter.Config> {
  return (await eslint.calculateConfigForFile(file)) as Linter.Config;
}

/** Writes the modules, then lints `entry` with no-cycle alone, configured as for `like`. */
async function cycles(like: string, modules: Record<string, string>, entry: string): Promise<string[]> {
  const real = await configFor(like);
  for (const [name, code] of Object.entries(modules)) writeFileSync(join(dir, name), code);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const file = join(dir, entry);
  const messages = linter.verify(
    modules[entry] ?? '',
    [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { 'import-x': importX },
        settings: real.settings ?? {},
        rules: { 'import-x/no-cycle': real.rules?.['import-x/no-cycle'] ?? 'off' },
      },
    ],
    file,
  );
  return messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('eslint: no import cycles', () => {
  it.each([
    'frontends/cn/src/api/base-query.ts',
    'frontends/en/src/routes/route-table.ts',
    'frontends/kit/src/toast.slice.ts',
    'services/auth/src/app.ts',
    'services/common/src/index.ts',
    'services/bff-en/test/public-api.test.ts',
    'scripts/create-topics.ts',
  ])('%s is checked', async (file) => {
    expect((await configFor(file)).rules?.['import-x/no-cycle']).toEqual([2]);
  });

  it('reports a cycle through .js specifiers of .ts modules, also over a third module and a lazy import', async () => {
    const modules = {
      'a.ts': `import { b } from './b.js';\nexport const a = (): number => b() + 1;\n`,
      'b.ts': `import { c } from './c.js';\nexport const b = (): number => c();\n`,
      'c.ts': `export const c = (): number => 1;\nexport const lazy = () => import('./a.js');\n`,
    };
    expect(await cycles('services/auth/src/app.ts', modules, 'a.ts')).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: Dependency cycle via/),
    ]);
  });

  it('lets a type-only import point back (it is erased at build)', async () => {
    const modules = {
      'd.ts': `import { e } from './e.js';\nexport interface D { n: number }\nexport const d = (): number => e();\n`,
      'e.ts': `import type { D } from './d.js';\nconst one: D = { n: 1 };\nexport const e = (): number => one.n;\n`,
    };
    expect(await cycles('frontends/en/src/routes/route-table.ts', modules, 'd.ts')).toEqual([]);
  });
});
