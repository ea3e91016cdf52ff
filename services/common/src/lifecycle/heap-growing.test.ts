import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { setHeapGrowingPercent } from './heap-growing.js';

const run = promisify(execFile);
const moduleUrl = new URL('./heap-growing.ts', import.meta.url).href;

/**
 * A child process sets the factor, keeps ~100 MB alive (above V8's smallest old-generation
 * limit, where the factor decides), then replaces objects that live long enough to be promoted
 * and die there; it prints how many mark-compacts that took.
 */
const workload = `
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setHeapGrowingPercent } from ${JSON.stringify(moduleUrl)};
setHeapGrowingPercent(Number(process.env.PERCENT));
let majors = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });
const live = [];
for (let i = 0; i < 2_500_000; i++) live.push({ i, s: 'x' + i });
const ring = new Array(400_000);
for (let i = 0; i < 6_000_000; i++) ring[i % 400_000] = { i, a: [i, i + 1] };
setTimeout(() => console.log(majors, live.length), 50);
`;

async function markCompacts(percent: number): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', '--input-type=module', '--eval', workload],
    { env: { ...process.env, PERCENT: String(percent) }, cwd: fileURLToPath(new URL('.', import.meta.url)) },
  );
  return Number(stdout.trim().split(' ')[0]);
}

describe('setHeapGrowingPercent', () => {
  it('changes how often V8 runs mark-compacts in a process that is already running', async () => {
    const [tight, loose] = await Promise.all([markCompacts(10), markCompacts(300)]);
    // Measured: 29 against 4, also with the cores busy; V8's own factor gave 4. A setting V8
    // ignored would give the same count twice.
    expect(tight).toBeGreaterThanOrEqual(3 * loose);
    expect(loose).toBeGreaterThan(0);
  }, 60_000);

  it('refuses what is not a percentage V8 takes', () => {
    expect(() => setHeapGrowingPercent(-1)).toThrow(RangeError);
    expect(() => setHeapGrowingPercent(1.5)).toThrow(RangeError);
    expect(() => setHeapGrowingPercent(1_001)).toThrow(RangeError);
  });
});
