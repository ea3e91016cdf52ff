import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOPIC_CATALOGUE } from '@ipdata/common';

/**
 * The docs inside the repository stay true: the root README's service table says what the
 * topic catalogue says, links point at files that exist, and nothing cites a document that is
 * not in the repository (the house style lives in services/README.md, the map in README.md).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Service table rows by service name: the topics each produces and consumes. */
function serviceRows(): Map<string, { produces: string[]; consumes: string[] }> {
  const start = readme.indexOf('## Services');
  const rows = new Map<string, { produces: string[]; consumes: string[] }>();
  for (const line of readme.slice(start).split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const name = /`services\/([a-z-]+)`/.exec(cells[0] ?? '')?.[1];
    if (name === undefined) continue;
    const topics = (cell: string) => [...cell.matchAll(/`([a-z.]+\.v\d+)`/g)].map((match) => match[1] as string);
    rows.set(name, { produces: topics(cells[3] ?? ''), consumes: topics(cells[4] ?? '') });
  }
  return rows;
}

/** Text files of the repository, without dependencies, build output and runtime data. */
function repoFiles(dir = ROOT): string[] {
  const skip = new Set(['node_modules', 'dist', 'var', 'gen', 'coverage', '.git']);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : repoFiles(path);
    return /\.(ts|tsx|js|mjs|md|sh|json|ya?ml)$|^Makefile$/.test(entry.name) ? [path] : [];
  });
}

describe('root README', () => {
  it('service table: produces and consumes match the topic catalogue', () => {
    const rows = serviceRows();
    const catalogued = new Set(TOPIC_CATALOGUE.map((topic) => topic.name));
    for (const topic of TOPIC_CATALOGUE) {
      for (const producer of topic.producers) expect(rows.get(producer)?.produces, `${producer} produces`).toContain(topic.name);
      for (const consumer of topic.consumers) expect(rows.get(consumer)?.consumes, `${consumer} consumes`).toContain(topic.name);
    }
    for (const [name, row] of rows) {
      for (const topic of row.produces.filter((t) => catalogued.has(t))) {
        expect(TOPIC_CATALOGUE.find((t) => t.name === topic)?.producers, `${name} produces ${topic}`).toContain(name);
      }
      for (const topic of row.consumes.filter((t) => catalogued.has(t))) {
        expect(TOPIC_CATALOGUE.find((t) => t.name === topic)?.consumers, `${name} consumes ${topic}`).toContain(name);
      }
    }
  });
});

describe('docs in the repository', () => {
  it.each(['README.md', 'services/README.md'])('%s links only to files that exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.length).toBeGreaterThan(3);
    for (const target of targets) expect(existsSync(join(ROOT, dirname(file), target)), target).toBe(true);
  });

  it('nothing cites a style or architecture document outside the repository', () => {
    const missing = ['STYLE', 'ARCHITECTURE', 'CONVENTIONS'].map((name) => `${name}.md`);
    const citing = repoFiles().flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return missing.filter((doc) => text.includes(doc)).map((doc) => `${relative(ROOT, path)} cites ${doc}`);
    });
    expect(citing).toEqual([]);
  });
});
