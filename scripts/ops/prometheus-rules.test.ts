/**
 * The alerting and recording rules (ops/prometheus/rules/): promtool checks them and runs their
 * unit tests (ops/prometheus/tests/, at least one per rule file: each alert fires on the series
 * that should fire it and stays quiet on healthy ones); every alert carries severity, summary,
 * description and a runbook_url to a file in docs/runbooks/; the k8s PrometheusRule manifest is
 * what scripts/ops/prometheus-rules.ts generates; and every `make <target>` and repository path
 * a runbook names exists. promtool is Debian's (scripts/test/install-prometheus.sh).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrdSchemas } from '../k8s/crd-schemas.js';
import { MANIFEST, ROOT, RULES_DIR, prometheusRulesManifest, ruleFiles } from './prometheus-rules.js';

const TESTS_DIR = join(ROOT, 'ops/prometheus/tests');
const RUNBOOKS_DIR = join(ROOT, 'docs/runbooks');
const RUNBOOK_BASE = 'https://github.com/ipdata/platform/blob/main/';

interface Rule {
  alert?: string;
  record?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const groups = ruleFiles().flatMap(
  (file) => (parse(readFileSync(join(RULES_DIR, file), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups,
);
const alerts = groups.flatMap((group) => group.rules.filter((rule) => rule.alert !== undefined));
const testFiles = readdirSync(TESTS_DIR).filter((name) => name.endsWith('.test.yml'));

let promtool = '';
beforeAll(() => {
  const out = execFileSync(join(ROOT, 'scripts/test/install-prometheus.sh'), { encoding: 'utf8' });
  promtool = /^promtool: (\S+)/m.exec(out)?.[1] ?? '';
  expect(promtool, out).not.toBe('');
}, 120_000);

describe('Prometheus rules', () => {
  it('pass promtool check rules', () => {
    const out = execFileSync(promtool, ['check', 'rules', ...ruleFiles()], { cwd: RULES_DIR, encoding: 'utf8' });
    expect(out).not.toMatch(/FAILED/);
  });

  it.each(testFiles)(
    'pass promtool test rules %s',
    (file) => {
      // promtool exits 1 and prints the expected and the got alerts on a failure.
      execFileSync(promtool, ['test', 'rules', file], { cwd: TESTS_DIR, encoding: 'utf8', stdio: 'pipe' });
    },
    120_000,
  );

  it('have a test file for every rule file, and every alert is named by a test', () => {
    for (const file of ruleFiles()) {
      const tests = testFiles.filter((test) => test.startsWith(file.replace(/\.yml$/, '')));
      expect(tests, file).not.toEqual([]);
    }
    const tested = testFiles.map((file) => readFileSync(join(TESTS_DIR, file), 'utf8')).join('\n');
    for (const alert of alerts) expect(tested, alert.alert).toContain(`alertname: ${alert.alert}`);
  });

  it('give every alert a severity, summary, description and a runbook in docs/runbooks/', () => {
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      const where = alert.alert;
      expect(['page', 'ticket'], where).toContain(alert.labels?.['severity']);
      expect(alert.annotations?.['summary'], where).toBeTruthy();
      expect(alert.annotations?.['description'], where).toBeTruthy();
      const url = alert.annotations?.['runbook_url'] ?? '';
      expect(url.startsWith(`${RUNBOOK_BASE}docs/runbooks/`), `${where}: ${url}`).toBe(true);
      expect(existsSync(join(ROOT, url.slice(RUNBOOK_BASE.length))), `${where}: ${url}`).toBe(true);
    }
  });

  it('are in the k8s PrometheusRule manifest as generated, and it matches the CRD', async () => {
    // Regenerate with: node --conditions=source --import tsx scripts/ops/prometheus-rules.ts
    const manifest = await prometheusRulesManifest();
    expect(readFileSync(MANIFEST, 'utf8')).toBe(manifest);
    const crds = CrdSchemas.inDirectory(join(ROOT, 'k8s/crds'));
    for (const document of manifest.split(/^---$/m).slice(1)) {
      const resource = parse(document) as { apiVersion: string; kind: string; metadata: { name: string } };
      expect(crds.errors(resource), resource.metadata.name).toEqual([]);
    }
  });
});

describe('Runbooks', () => {
  const runbooks = readdirSync(RUNBOOKS_DIR).filter((name) => name.endsWith('.md'));
  const makefile = readFileSync(join(ROOT, 'Makefile'), 'utf8');
  const targets = new Set(
    [...makefile.matchAll(/^([a-z][\w-]*(?: [a-z][\w-]*)*):(?!=)/gm)].flatMap((match) => match[1]!.split(' ')),
  );

  it.each(runbooks)('%s names only make targets and paths that exist', (file) => {
    const text = readFileSync(join(RUNBOOKS_DIR, file), 'utf8');
    for (const match of text.matchAll(/`make ([a-z][\w-]*)/g)) expect(targets, `${file}: make ${match[1]}`).toContain(match[1]);
    for (const match of text.matchAll(/(?<![\w/.-])((?:scripts|infra|services|k8s|ops|docs)\/[\w./-]*\w)/g)) {
      const path = match[1]!.replace(/<[^>]*>.*$/, '');
      if (path.includes('<')) continue;
      expect(existsSync(join(ROOT, path)), `${file}: ${path}`).toBe(true);
    }
    for (const match of text.matchAll(/\]\(([\w-]+\.md)\)/g)) expect(runbooks, `${file}: ${match[1]}`).toContain(match[1]);
  });

  it('has one per alert and an index naming every runbook', () => {
    const index = readFileSync(join(RUNBOOKS_DIR, 'README.md'), 'utf8');
    for (const file of runbooks.filter((name) => name !== 'README.md')) expect(index, file).toContain(`(${file})`);
    for (const alert of alerts) expect(index, alert.alert).toContain(alert.alert);
  });
});
