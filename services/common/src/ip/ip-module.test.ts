import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe("'@ipdata/common/ip'", () => {
  it('imports nothing outside its folder, so the engine hot path and the dataset build load no driver or logger', () => {
    const folder = new URL('./', import.meta.url);
    const sources = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(sources).toContain('index.ts');
    for (const name of sources) {
      const text = readFileSync(new URL(name, folder), 'utf8');
      const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((match) => match[1]);
      for (const specifier of specifiers) expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\/[\w-]+\.js$/);
    }
  });
});
