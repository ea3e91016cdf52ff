import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The modules a file loads when it runs: `import`/`export ... from` that are not type-only. */
function loadedSpecifiers(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)';/gms)) {
    if (match[2] === undefined) specifiers.push(match[3] as string);
  }
  for (const match of source.matchAll(/^import\s+'([^']+)';/gm)) specifiers.push(match[1] as string);
  return specifiers;
}

const commonRoot = fileURLToPath(new URL('../../../../common/', import.meta.url));
const commonExports = (
  JSON.parse(readFileSync(`${commonRoot}package.json`, 'utf8')) as { exports: Record<string, { source: string }> }
).exports;

/** A package's source file when it is a subpath of @ipdata/common (followed like project files). */
function commonSource(specifier: string): string | undefined {
  if (specifier !== '@ipdata/common' && !specifier.startsWith('@ipdata/common/')) return undefined;
  const entry = commonExports[`.${specifier.slice('@ipdata/common'.length)}`];
  return entry === undefined ? undefined : resolve(commonRoot, entry.source);
}

/** Every package loaded from `entry` through the project's files and common's (relative imports, common subpaths). */
function packagesLoadedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of loadedSpecifiers(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else {
        packages.add(specifier);
        const common = commonSource(specifier);
        if (common !== undefined) visit(common);
      }
    }
  };
  visit(entry);
  return packages;
}

describe('the usage ledger worker thread', () => {
  it("loads common's worker subpath, never its main index (whose modules would stay live in the worker's heap)", () => {
    const worker = fileURLToPath(new URL('./usage-kafka.worker.ts', import.meta.url));
    const packages = packagesLoadedFrom(worker);
    expect(packages).toContain('@ipdata/common/worker');
    expect(packages).toContain('kafkajs');
    const heavy = [...packages].filter(
      (name) => name === '@ipdata/common' || /^(@grpc\/|@opentelemetry\/sdk|mongoose|mongodb|ioredis)/.test(name),
    );
    expect(heavy).toEqual([]);
  });
});
