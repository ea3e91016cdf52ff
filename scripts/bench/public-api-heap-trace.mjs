// The live heap of a process started by someone else (the benchmark's bulk bff-en), loaded with
// NODE_OPTIONS="--import <this file>": after each full (mark-compact) GC, one line
// `{"at_ms": <epoch ms>, "used_mib": <V8 heap in use>}` appended to BENCH_HEAP_TRACE_FILE. The
// heap right after a full GC is what the process still holds; RSS between two full GCs also
// counts garbage not yet collected, so only this floor shows whether a job's memory grows with
// its file. Plain JavaScript: it runs before tsx.
import { appendFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import process from 'node:process';
import { getHeapStatistics } from 'node:v8';

const file = process.env['BENCH_HEAP_TRACE_FILE'];
if (file) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      const usedMiB = Math.round((getHeapStatistics().used_heap_size / 2 ** 20) * 10) / 10;
      appendFileSync(file, `${JSON.stringify({ at_ms: Date.now(), used_mib: usedMiB })}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}
