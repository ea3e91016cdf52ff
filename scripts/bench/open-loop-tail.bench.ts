/**
 * Where `GET /v1/ip/{ip}`'s open-loop tail comes from (issue 11: p99 ≤ 20 ms, the accounting's
 * p99 cost ≤ 1 ms). public-api.bench.ts reads the p99; this says what the slow answers have in
 * common. bff-en with accounting on and off, started side by side on the benchmark's platform,
 * take vegeta's fixed rate in turn, `--rounds` times round robin; every answer's latency is kept
 * (`vegeta encode`). Per round it prints one JSON line per variant:
 * - p50 / p99, answers slower than `--slow-ms`, and how they cluster: `slow_windows` (100-ms
 *   windows holding at least 20 of them) and the share of slow answers inside those windows;
 * - bff-en's event-loop stalls (a 2-ms timer more than 10 ms late) and GC pauses by kind
 *   (open-loop-tail-probe.mjs, loaded into bff-en);
 * - per 100 ms, bff-en's main thread's CPU and its wait for a core, and its other threads' CPU
 *   (GC helpers, the ledger's Kafka worker), in slow windows against calm ones (`/proc/<pid>/task/<tid>/schedstat`,
 *   sampled every 20 ms by this process: its own cost falls on the machine alike for both).
 * Session 21's reading is in services/bff-en/README.md ("Measured"). Bounded: every attack is
 * -duration bounded and everything started is stopped at the end.
 *
 *   make dataset && make stack-up && scripts/bench/install-tools.sh
 *   node --conditions=source --import tsx scripts/bench/open-loop-tail.bench.ts [--rate 2000]
 *        [--seconds 20] [--rounds 3] [--slow-ms 20]
 * BENCH_BFF_EN_ENV="NAME=value,..." adds variables to both bff-en (public-api-platform.ts).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAccount } from '../test/system/index.js';
import { emit, median, numberOption as option, percentile, repoRoot } from './bench-support.js';
import { runVegeta } from './fixed-rate-load.js';
import { BenchPlatform } from './public-api-platform.js';
import { randomPublicIpv4, round } from './public-api-support.js';

const rate = option('rate', 2_000);
const seconds = option('seconds', 20);
const rounds = option('rounds', 3);
const slowMs = option('slow-ms', 20);
const WINDOW_MS = 100;
/** A window is "slow" when it holds this many slow answers: a stall, not a stray. */
const SLOW_WINDOW_ANSWERS = 20;
const SAMPLE_EVERY_MS = 20;

/** CPU time (ns) of `pid`'s main thread and of its other threads, and the main thread's wait for a core. */
function threadCpu(pid: number): { main: number; mainWait: number; others: number } {
  let main = 0;
  let mainWait = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      // schedstat: ns on a CPU, ns runnable but waiting for one, timeslices.
      const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ').map(Number);
      if (tid === String(pid)) [main, mainWait] = [onCpu ?? 0, waiting ?? 0];
      else others += onCpu ?? 0;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { main, mainWait, others };
}

interface CpuSample {
  atMs: number;
  main: number;
  mainWait: number;
  others: number;
}

function sampleThreads(pid: number): { stop(): CpuSample[] } {
  const samples: CpuSample[] = [];
  const timer = setInterval(() => samples.push({ atMs: Date.now(), ...threadCpu(pid) }), SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** vegeta's CSV: timestamp (ns since epoch), HTTP code, latency (ns), ... */
function answers(csv: string): Array<{ atMs: number; latencyMs: number }> {
  return csv
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [at, , latency] = line.split(',', 3);
      return { atMs: Number(BigInt(at as string) / 1_000_000n), latencyMs: Number(latency) / 1e6 };
    });
}

/** Probe lines (`<wall ms> <duration ms> <what>`) between `from` and `to`, per kind: count, total, max. */
function probeEvents(file: string, from: number, to: number): Record<string, number> {
  // No file: no stall and no GC pause was written.
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [at, duration, what] = line.split(' ');
    if (what === undefined || Number(at) < from || Number(at) > to) continue;
    const ms = Number(duration);
    out[`${what}_count`] = (out[`${what}_count`] ?? 0) + 1;
    out[`${what}_total_ms`] = round((out[`${what}_total_ms`] ?? 0) + ms, 1);
    out[`${what}_max_ms`] = round(Math.max(out[`${what}_max_ms`] ?? 0, ms), 1);
  }
  return out;
}

/** Mean ms per 100-ms window (main thread on a CPU and waiting for one, other threads on a CPU) over the windows `pick` keeps. */
function cpuPerWindow(samples: CpuSample[], start: number, pick: (window: number) => boolean) {
  const sums = { main: 0, mainWait: 0, others: 0, windows: new Set<number>() };
  for (let i = 1; i < samples.length; i++) {
    const [before, after] = [samples[i - 1] as CpuSample, samples[i] as CpuSample];
    const window = Math.floor((after.atMs - start) / WINDOW_MS);
    if (!pick(window)) continue;
    sums.windows.add(window);
    sums.main += (after.main - before.main) / 1e6;
    sums.mainWait += (after.mainWait - before.mainWait) / 1e6;
    sums.others += (after.others - before.others) / 1e6;
  }
  const n = sums.windows.size || 1;
  return { main: round(sums.main / n, 1), mainWait: round(sums.mainWait / n, 1), others: round(sums.others / n, 1) };
}

const work = mkdtempSync(join(tmpdir(), 'ipdata-bench-tail-'));
const platform = await BenchPlatform.start(join(work, 'system'), Number(process.env['BENCH_PORT_BASE'] ?? 19450));
try {
  const probe = join(repoRoot, 'scripts/bench/open-loop-tail-probe.mjs');
  const variants = await Promise.all(
    (['on', 'off'] as const).map(async (name) => {
      const probeFile = join(work, `probe-${name}.log`);
      const server = await platform.startBffEn(`bff-en-${name}`, {
        NODE_OPTIONS: `--import ${probe}`,
        BENCH_TAIL_PROBE_FILE: probeFile,
        ...(name === 'off' ? { PUBLIC_API_ACCOUNTING: 'off' } : {}),
      });
      return { name, server, probeFile };
    }),
  );
  const apiKey = (await createTestAccount({ plan: 'api-bench', keyName: 'bench-tail' })).apiKey;
  const addresses = randomPublicIpv4(rate * seconds * (rounds + 1), 21);
  const p99s: Record<string, number[]> = { on: [], off: [] };
  // Round 0 warms both up (JIT, the engine's first records) and is not reported.
  for (let roundNo = 0; roundNo <= rounds; roundNo++) {
    for (const { name, server, probeFile } of variants) {
      const offset = roundNo * rate * seconds;
      const sampler = sampleThreads(server.pid);
      const started = Date.now();
      const csv = await runVegeta(
        {
          origin: server.origin,
          path: '/v1/ip/',
          addresses: addresses.slice(offset, offset + rate * seconds),
          apiKey,
          ratePerSecond: rate,
          seconds,
          connections: 50,
          workDir: work,
        },
        ['encode', '--to', 'csv'],
      );
      const samples = sampler.stop();
      if (roundNo === 0) continue;
      const all = answers(csv);
      const first = all[0]?.atMs ?? started;
      const sorted = all.map((answer) => answer.latencyMs).sort((a, b) => a - b);
      const slowPerWindow = new Map<number, number>();
      for (const answer of all) {
        if (answer.latencyMs <= slowMs) continue;
        const window = Math.floor((answer.atMs - first) / WINDOW_MS);
        slowPerWindow.set(window, (slowPerWindow.get(window) ?? 0) + 1);
      }
      const slowWindows = new Set([...slowPerWindow].filter(([, n]) => n >= SLOW_WINDOW_ANSWERS).map(([w]) => w));
      const slow = [...slowPerWindow.values()].reduce((a, b) => a + b, 0);
      const inSlowWindows = [...slowWindows].reduce((sum, w) => sum + (slowPerWindow.get(w) ?? 0), 0);
      const p99 = round(percentile(sorted, 99), 1);
      p99s[name]?.push(p99);
      const busy = cpuPerWindow(samples, first, (w) => slowWindows.has(w));
      const calm = cpuPerWindow(samples, first, (w) => !slowPerWindow.has(w));
      emit({
        bench: 'open_loop_tail',
        variant: name,
        round: roundNo,
        rate,
        answers: all.length,
        p50_ms: round(percentile(sorted, 50), 1),
        p99_ms: p99,
        max_ms: round(sorted[sorted.length - 1] ?? 0, 1),
        slow_answers: slow,
        slow_windows: slowWindows.size,
        slow_share_in_slow_windows: round(inSlowWindows / (slow || 1)),
        main_cpu_ms_per_window_slow: busy.main,
        main_cpu_ms_per_window_calm: calm.main,
        main_wait_ms_per_window_slow: busy.mainWait,
        main_wait_ms_per_window_calm: calm.mainWait,
        other_threads_cpu_ms_per_window_slow: busy.others,
        other_threads_cpu_ms_per_window_calm: calm.others,
        ...probeEvents(probeFile, first, first + seconds * 1000 + 1000),
      });
    }
  }
  emit({
    bench: 'open_loop_tail_summary',
    rate,
    seconds,
    rounds,
    on_p99_ms_median: median(p99s['on'] ?? []),
    off_p99_ms_median: median(p99s['off'] ?? []),
    accounting_p99_cost_ms: round(median(p99s['on'] ?? []) - median(p99s['off'] ?? []), 1),
  });
} finally {
  await platform.stop();
  if (process.env['BENCH_KEEP'] === undefined) rmSync(work, { recursive: true, force: true });
}
process.exit(0);
