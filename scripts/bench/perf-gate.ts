/**
 * The performance gate of `make test` (scripts/test/run-perf-gate.sh starts the Kafka and Redis
 * it needs): each benchmark of perf-gate.json runs with its committed arguments, and every ratio
 * it reports (a baseline measured in the same run over our path's cost: the general serialiser,
 * kafkajs' own records) must stay within `tolerance` of its committed value. Ratios, not
 * figures, because this machine is shared: a busy neighbour slows the baseline and our path
 * alike. A benchmark whose checks fail runs once more and is judged on the second run alone, so
 * one unlucky run does not fail CI while a real regression fails both.
 *
 *   make perf-gate            (needs make build, make dataset and a stack: make stack-up)
 *
 * Prints one JSON line per check and exits non-zero when any check fails twice. To commit new
 * values after a change that moves a ratio on purpose, put the summary's medians into
 * perf-gate.json and say why in the commit.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { emit, repoRoot } from './bench-support.js';
import { judge, summaryOf, type CheckVerdict, type GateCheck } from './perf-gate-verdict.js';

interface GateBench {
  name: string;
  script: string;
  node: string[];
  args: string[];
  checks: GateCheck[];
}

const run = promisify(execFile);
const gate = JSON.parse(readFileSync(join(repoRoot, 'scripts/bench/perf-gate.json'), 'utf8')) as {
  tolerance: number;
  benches: GateBench[];
};

async function measure(bench: GateBench): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [...bench.node, bench.script, ...bench.args], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 300_000,
  });
  const summary = summaryOf(stdout);
  if (summary === undefined) throw new Error(`${bench.name}: no summary line in its output`);
  return summary;
}

let failed = 0;
for (const bench of gate.benches) {
  let verdicts: CheckVerdict[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    verdicts = judge(bench.checks, await measure(bench), gate.tolerance);
    for (const verdict of verdicts) emit({ bench: 'perf_gate', name: bench.name, attempt, ...verdict });
    if (verdicts.every((verdict) => verdict.pass)) break;
  }
  failed += verdicts.filter((verdict) => !verdict.pass).length;
}
emit({ bench: 'perf_gate_summary', checks: gate.benches.reduce((sum, bench) => sum + bench.checks.length, 0), failed });
process.exit(failed === 0 ? 0 : 1);
