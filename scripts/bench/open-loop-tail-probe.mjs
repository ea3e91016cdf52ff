// What bff-en's event loop went through during open-loop-tail.bench.ts: every GC pause (kind,
// start, duration) and every time a 2-ms timer fired more than 10 ms late (a stall: a long task,
// or the thread waiting for a core). Loaded with NODE_OPTIONS="--import <this file>"; writes
// `<wall ms> <duration ms> <what>` lines to BENCH_TAIL_PROBE_FILE once a second and at exit. Plain
// JavaScript: it runs before tsx. NODE_OPTIONS preloads it into worker threads too, each an
// isolate with its own GC and event loop: their lines say `worker_gc_...` and `worker_stall`, so
// the plain kinds are the main thread's alone.
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const file = process.env['BENCH_TAIL_PROBE_FILE'];
if (file) {
  const GC_KINDS = { 1: 'scavenge', 2: 'minor_mark_sweep', 4: 'mark_compact', 8: 'incremental', 16: 'weak_callbacks' };
  const thread = isMainThread ? '' : 'worker_';
  let lines = [];
  const at = (start) => (performance.timeOrigin + start).toFixed(1);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      lines.push(`${at(entry.startTime)} ${entry.duration.toFixed(2)} ${thread}gc_${GC_KINDS[entry.detail?.kind] ?? 'other'}`);
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 12) lines.push(`${at(last)} ${(now - last - 2).toFixed(2)} ${thread}stall`);
    last = now;
  }, 2).unref();
  const flush = () => {
    if (lines.length === 0) return;
    appendFileSync(file, `${lines.join('\n')}\n`);
    lines = [];
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}
