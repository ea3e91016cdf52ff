import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './bench-support.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'tail-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A main thread and a worker thread (a module file: NODE_OPTIONS preloads into those) that both
// make garbage; the worker also blocks its own event loop for 60 ms (a stall there), then lives on
// so its late timer fires.
const CHURN = `const churn = (n) => { let keep = []; for (let i = 0; i < n; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 5e4) keep = []; } };`;
const WORKER = `${CHURN}\nchurn(2e6);\nconst t = Date.now();\nwhile (Date.now() - t < 60) {}\nsetTimeout(() => {}, 40);\n`;
const MAIN = `import { Worker } from 'node:worker_threads';\n${CHURN}\nnew Worker(new URL('./worker.mjs', import.meta.url));\nchurn(2e6);\n`;

describe('open-loop-tail-probe.mjs', () => {
  it("labels a worker thread's GC pauses and stalls apart from the main thread's", async () => {
    const file = join(dir, 'probe.log');
    // As the benchmark loads it into bff-en: through NODE_OPTIONS, which module-file workers read too.
    const probe = join(repoRoot, 'scripts/bench/open-loop-tail-probe.mjs');
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    writeFileSync(join(dir, 'main.mjs'), MAIN);
    await run(process.execPath, [join(dir, 'main.mjs')], {
      env: { ...process.env, NODE_OPTIONS: `--import ${probe}`, BENCH_TAIL_PROBE_FILE: file },
      timeout: 30_000,
    });
    const kinds = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split(' ')[2] ?? '');
    expect(kinds).toContain('gc_scavenge');
    expect(kinds).toContain('worker_gc_scavenge');
    expect(kinds).toContain('worker_stall');
    // Every line is one of the two threads' kinds, named as probeEvents() sums them.
    for (const kind of kinds) expect(kind).toMatch(/^(worker_)?(gc_[a-z_]+|stall)$/);
  });
});
