/**
 * Writes k8s/components/monitoring/prometheus-rules.yaml: one PrometheusRule per rule file in
 * ops/prometheus/rules/ (the one source of the alerting and recording rules; the local
 * Prometheus and promtool read those files as they are). `spec` is the file's `groups`
 * unchanged. scripts/ops/prometheus-rules.test.ts fails when the manifest is not what this writes.
 *
 *   node --conditions=source --import tsx scripts/ops/prometheus-rules.ts
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse, stringify } from 'yaml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RULES_DIR = join(ROOT, 'ops/prometheus/rules');
export const MANIFEST = join(ROOT, 'k8s/components/monitoring/prometheus-rules.yaml');

export function ruleFiles(): string[] {
  return readdirSync(RULES_DIR)
    .filter((name) => name.endsWith('.yml'))
    .sort();
}

/** The PrometheusRule manifests of every rule file, as one YAML stream (formatted as `make lint` wants it). */
export async function prometheusRulesManifest(): Promise<string> {
  const header = '# Generated from ops/prometheus/rules/*.yml by scripts/ops/prometheus-rules.ts; do not edit.\n';
  const documents = ruleFiles().map((file) => {
    const { groups } = parse(readFileSync(join(RULES_DIR, file), 'utf8')) as { groups: unknown[] };
    return stringify(
      {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: { name: `ipdata-${file.replace(/\.yml$/, '')}`, labels: { 'app.kubernetes.io/part-of': 'ipdata' } },
        spec: { groups },
      },
      { lineWidth: 0 },
    );
  });
  const text = header + documents.map((document) => `---\n${document}`).join('');
  return format(text, { ...(await resolveConfig(MANIFEST)), filepath: MANIFEST });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(MANIFEST, await prometheusRulesManifest());
  console.log(`wrote ${MANIFEST}`);
}
