/**
 * Where `GET /v1/ip/{ip}`'s open-loop tail comes from (issue 11: p99 ≤ 20 ms, the accounting's
 * p99 cost ≤ 1 ms). public-api.bench.ts reads the p99; this says what the slow answers have in
 * common. bff-en with accounting on and off, started side by side on the benchmark's platform,
 * take vegeta's fixed rate in turn, `--rounds` times round robin (each variant warmed up first by
 * `--warm-up-seconds` not reported, after every address of the run went once through each
 * process as batches, lookup-warm-up.ts; the variant going first rotates per round); every answer's
 * latency is kept (`vegeta encode`). Per round it prints one JSON line per variant:
 * - p50 / p99, answers slower than `--slow-ms`, and how they cluster: `slow_windows` (100-ms
 *   windows holding at least 20 of them) and the share of slow answers inside those windows;
 * - bff-en's event-loop stalls (a 2-ms timer more than 10 ms late) and GC pauses by kind
 *   (open-loop-tail-probe.mjs, loaded into bff-en): `gc_*` and `stall_*` are the main thread's,
 *   `worker_gc_*` and `worker_stall_*` the usage ledger's Kafka worker's;
 * - per 100 ms, in slow windows against calm ones (`cpu_ms_per_window_slow` / `_calm`): bff-en's
 *   main thread's CPU and its wait for a core, its other threads' CPU (GC helpers, the ledger's
 *   Kafka worker; `/proc/<pid>/task/<tid>/schedstat`), the CPU of every other process of the stack
 *   by group (the engine, Redis, Kafka, vegeta, ...) and the machine's busy time, sampled every
 *   20 ms by this process (its own cost falls on the machine alike for both variants).
 * The summary gives each variant's median p99 over the rounds and, for the accounting's p99 cost,
 * every round's answers pooled per variant: the on − off difference of the pooled p99s with a 90%
 * interval from resampling the rounds in pairs (latency-histogram.ts). Many short rounds
 * (`--rounds 30 --seconds 2`) put both variants through the same minutes of a noisy machine
 * instead of one 20-s stretch each; `--try-node-flags ""` adds an identical third bff-en, whose
 * difference to `on` shows what the method resolves here (an A/A). Two identical processes can
 * differ for their whole life (when their mark-compacts fall, where their heap lies):
 * `--processes 2` (or more) starts that many of each variant and round n attacks each variant's
 * process n mod K, so what one process has of its own varies between rounds and shows in the
 * interval instead of in the difference.
 * The current readings are in services/bff-en/README.md. Bounded: every attack is
 * -duration bounded and everything started is stopped at the end.
 *
 *   make dataset && make stack-up && scripts/bench/install-tools.sh
 *   node --conditions=source --import tsx scripts/bench/open-loop-tail.bench.ts [--rate 2000]
 *        [--seconds 20] [--rounds 3] [--warm-up-seconds 10] [--slow-ms 20] [--processes 1] [--try-node-flags "<node flags>"]
 *        [--try-env "NAME=value,..."] [--node-flags "<node flags for every variant>"]
 * BENCH_BFF_EN_ENV="NAME=value,..." adds variables to both bff-en (public-api-platform.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAccount } from '../test/system/index.js';
import {
  emit,
  median,
  nodeFlagsOption,
  numberOption as option,
  percentile,
  processCpuMs,
  repoRoot,
  textOption,
} from './bench-support.js';
import { runVegeta } from './fixed-rate-load.js';
import { LatencyHistogram, pairedPercentileDifference } from './latency-histogram.js';
import { warmLookups } from './lookup-warm-up.js';
import { groupedProcesses, machineBusyMs } from './process-cpu.js';
import { BenchPlatform, envList } from './public-api-platform.js';
import { randomPublicIpv4, round } from './public-api-support.js';

const rate = option('rate', 2_000);
const seconds = option('seconds', 20);
const rounds = option('rounds', 3);
// Each variant's first attack, not reported: JIT, the engine's first records, the broker's first batches.
const warmUpSeconds = option('warm-up-seconds', 10);
const slowMs = option('slow-ms', 20);
/** bff-en processes per variant, taking the rounds in turn. */
const processes = option('processes', 1);
/**
 * Node flags to try: a third variant, accounting on, started with them (e.g. "--single-threaded-gc");
 * "" makes it the same as `on`, an A/A run that shows how far two identical builds differ here.
 */
const tryNodeFlags = nodeFlagsOption('try-node-flags');
/** Node flags for every variant, for diagnostics that must be alike on all (e.g. "--trace-gc --trace-gc-nvp" with BENCH_KEEP=1). */
const allNodeFlags = nodeFlagsOption('node-flags') ?? [];
/** Variables for that third variant ("NAME=value,..."), e.g. "QUOTA_LEASE_INTERVAL_MS=0"; alone or with --try-node-flags. */
const tryEnvOption = textOption('try-env');
const tryEnv = envList(tryEnvOption ?? '');
const tried = tryNodeFlags !== undefined || tryEnvOption !== undefined;
/**
 * ms of CPU per 100 ms that a stand-in process (cpu-burner.mjs) spins on the same cores during a
 * third variant's attacks, `off_burn`: the accounting-off bff-en again, with that much more CPU
 * on the machine. It asks whether the accounting's p99 cost is simply its CPU on these 2 shared
 * cores (the usage relay, the broker, the main thread).
 */
const tryBurn = process.argv.includes('--try-burn') ? option('try-burn', 1) : 0;
/** The stand-in's nice value (default 10: a background thread's priority below the main thread's). */
const tryBurnNice = Number(textOption('try-burn-nice') ?? 10);
if (!Number.isInteger(tryBurnNice) || tryBurnNice < 0 || tryBurnNice > 19) throw new Error('--try-burn-nice: 0 to 19');
if (tried && tryBurn > 0) throw new Error('--try-burn replaces the tried variant: use it without --try-node-flags / --try-env');
const WINDOW_MS = 100;
/** A window is "slow" when it holds this many slow answers: a stall, not a stray. */
const SLOW_WINDOW_ANSWERS = 20;
const SAMPLE_EVERY_MS = 20;
/**
 * The first ms of each attack, also read apart: a variant left idle while the others take their
 * turn starts cold (the quota's leases lapse after 1 s without demand, so the first reservations
 * go to Redis until the next lease round), which production's steady load does not see.
 */
const RAMP_MS = 500;

/** ms of CPU of `pid`'s main thread and of its other threads, and of the main thread's wait for a core. */
function threadCpu(pid: number): { main: number; main_wait: number; other_threads: number } {
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
  return { main: main / 1e6, main_wait: mainWait / 1e6, other_threads: others / 1e6 };
}

/**
 * Cumulative ms per name at one moment: bff-en's threads (threadCpu), the machine, and each other
 * process of the stack as `<group> <pid>` (summed per group per window: a process that starts
 * meanwhile, such as each attack's vegeta, counts from its first sample on).
 */
interface CpuSample {
  atMs: number;
  ms: Record<string, number>;
}

/**
 * Samples every SAMPLE_EVERY_MS: `pid`'s threads, every other process of the stack by group
 * (process-cpu.ts: the engine, Redis, Kafka, vegeta, ...; `skip` left out, the list renewed every
 * 10 samples) and the machine's busy time.
 */
function sampleCpu(pid: number, skip: ReadonlySet<number>): { stop(): CpuSample[] } {
  const samples: CpuSample[] = [];
  let groups: Array<[number, string]> = [];
  const timer = setInterval(() => {
    if (samples.length % 10 === 0) groups = [...groupedProcesses()].filter(([other]) => other !== pid && !skip.has(other));
    const ms: Record<string, number> = { ...threadCpu(pid), machine: machineBusyMs() };
    for (const [other, group] of groups) {
      try {
        ms[`${group} ${other}`] = processCpuMs(other);
      } catch {
        // Exited (the vegeta of an attack that ended).
      }
    }
    samples.push({ atMs: Date.now(), ms });
  }, SAMPLE_EVERY_MS);
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

/** Mean ms of CPU (or of waiting for one) per 100-ms window, per name (a group: its processes summed), over the windows `pick` keeps. */
function cpuPerWindow(samples: CpuSample[], start: number, pick: (window: number) => boolean): Record<string, number> {
  const sums: Record<string, number> = {};
  const windows = new Set<number>();
  for (let i = 1; i < samples.length; i++) {
    const [before, after] = [samples[i - 1] as CpuSample, samples[i] as CpuSample];
    const window = Math.floor((after.atMs - start) / WINDOW_MS);
    if (!pick(window)) continue;
    windows.add(window);
    for (const [key, ms] of Object.entries(after.ms)) {
      const name = key.split(' ', 1)[0] as string;
      sums[name] = (sums[name] ?? 0) + ms - (before.ms[key] ?? ms);
    }
  }
  const n = windows.size || 1;
  return Object.fromEntries(Object.entries(sums).map(([name, ms]) => [name, round(ms / n, 1)]));
}

/** The stand-in for --try-burn, started paused (SIGSTOP); it exits when this process ends (its stdin closes). */
function startBurner(msPer100: number, nice: number): ChildProcess {
  const burner = spawn(
    'nice',
    ['-n', String(nice), process.execPath, join(repoRoot, 'scripts/bench/cpu-burner.mjs'), String(msPer100)],
    {
      stdio: ['pipe', 'ignore', 'inherit'],
    },
  );
  burner.kill('SIGSTOP');
  return burner;
}

const work = mkdtempSync(join(tmpdir(), 'ipdata-bench-tail-'));
const platform = await BenchPlatform.start(join(work, 'system'), Number(process.env['BENCH_PORT_BASE'] ?? 19450));
const burner = tryBurn > 0 ? startBurner(tryBurn, tryBurnNice) : undefined;
try {
  const probe = join(repoRoot, 'scripts/bench/open-loop-tail-probe.mjs');
  const startOne = async (name: string, instance: number) => {
    const label = processes === 1 ? name : `${name}-${instance + 1}`;
    const probeFile = join(work, `probe-${label}.log`);
    const server = await platform.startBffEn(
      `bff-en-${label}`,
      {
        NODE_OPTIONS: `--import ${probe}`,
        BENCH_TAIL_PROBE_FILE: probeFile,
        ...(name === 'off' ? { PUBLIC_API_ACCOUNTING: 'off' } : {}),
        ...(name === 'on_tried' ? tryEnv : {}),
      },
      [...allNodeFlags, ...(name === 'on_tried' ? (tryNodeFlags ?? []) : [])],
    );
    return { server, probeFile };
  };
  const started = await Promise.all(
    ['on', 'off', ...(tried ? ['on_tried'] : [])].map(async (name) => ({
      name,
      instances: await Promise.all(Array.from({ length: processes }, (_, instance) => startOne(name, instance))),
    })),
  );
  const off = started.find(({ name }) => name === 'off') as (typeof started)[number];
  // off_burn is the same bff-en as off: only the stand-in's CPU differs.
  const variants = burner === undefined ? started : [...started, { ...off, name: 'off_burn' }];
  const bffEnPids = new Set(variants.flatMap(({ instances }) => instances.map(({ server }) => server.pid)));
  const apiKey = (await createTestAccount({ plan: 'api-bench', keyName: 'bench-tail' })).apiKey;
  const warmUpAnswers = rate * warmUpSeconds;
  const addresses = randomPublicIpv4(warmUpAnswers + rate * seconds * rounds, 21);
  const attack = (origin: string, offset: number, attackSeconds: number) =>
    runVegeta(
      {
        origin,
        path: '/v1/ip/',
        addresses: addresses.slice(offset, offset + rate * attackSeconds),
        apiKey,
        ratePerSecond: rate,
        seconds: attackSeconds,
        connections: 50,
        workDir: work,
      },
      ['encode', '--to', 'csv'],
    );
  // Every address of every round once through each process, off's first (lookup-warm-up.ts): else
  // the variant going first in a round meets records the engine has not split yet and pays for it.
  const processesOffFirst = [...new Set([...off.instances, ...variants.flatMap(({ instances }) => instances)])];
  const lookupWarmUp = await warmLookups(
    processesOffFirst.map(({ server }) => server.origin),
    apiKey,
    [addresses],
  );
  for (const { server } of processesOffFirst) {
    await attack(server.origin, 0, warmUpSeconds);
  }
  const perVariant = <T>(): Record<string, T[]> => Object.fromEntries(variants.map(({ name }) => [name, []]));
  const p99s = perVariant<number>();
  const histograms = perVariant<LatencyHistogram>();
  const steadyHistograms = perVariant<LatencyHistogram>();
  for (let roundNo = 1; roundNo <= rounds; roundNo++) {
    // The variants take turns going first: none always runs right after another's load.
    const order = variants.map((_, i) => variants[(i + roundNo) % variants.length] as (typeof variants)[number]);
    for (const { name, instances } of order) {
      const instance = (roundNo - 1) % processes;
      const { server, probeFile } = instances[instance] as (typeof instances)[number];
      const sampler = sampleCpu(server.pid, bffEnPids);
      const attackStarted = Date.now();
      if (name === 'off_burn') burner?.kill('SIGCONT');
      const csv = await attack(server.origin, warmUpAnswers + (roundNo - 1) * rate * seconds, seconds).finally(() =>
        burner?.kill('SIGSTOP'),
      );
      const samples = sampler.stop();
      const all = answers(csv);
      const histogram = new LatencyHistogram();
      for (const answer of all) histogram.add(answer.latencyMs);
      histograms[name]?.push(histogram);
      const first = all[0]?.atMs ?? attackStarted;
      const steady = new LatencyHistogram();
      let slowInRamp = 0;
      for (const answer of all) {
        if (answer.atMs - first >= RAMP_MS) steady.add(answer.latencyMs);
        else if (answer.latencyMs > slowMs) slowInRamp++;
      }
      steadyHistograms[name]?.push(steady);
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
        ...(processes === 1 ? {} : { process: instance + 1 }),
        rate,
        answers: all.length,
        p50_ms: round(percentile(sorted, 50), 1),
        p99_ms: p99,
        max_ms: round(sorted[sorted.length - 1] ?? 0, 1),
        slow_answers: slow,
        slow_in_first_500ms: slowInRamp,
        p99_after_500ms_ms: round(steady.percentile(99), 1),
        slow_windows: slowWindows.size,
        slow_share_in_slow_windows: round(inSlowWindows / (slow || 1)),
        cpu_ms_per_window_slow: busy,
        cpu_ms_per_window_calm: calm,
        ...probeEvents(probeFile, first, first + seconds * 1000 + 1000),
      });
    }
  }
  const pooledP99 = (name: string) => round(LatencyHistogram.pooled(histograms[name] ?? []).percentile(99), 2);
  const pairedP99 = (a: string, b: string, from = histograms) => {
    const { difference, low, high } = pairedPercentileDifference(from[a] ?? [], from[b] ?? [], 99);
    return [round(difference, 2), round(low, 2), round(high, 2)];
  };
  emit({
    bench: 'open_loop_tail_summary',
    rate,
    seconds,
    rounds,
    processes_per_variant: processes,
    lookup_warm_up: lookupWarmUp,
    on_p99_ms_median: median(p99s['on'] ?? []),
    off_p99_ms_median: median(p99s['off'] ?? []),
    accounting_p99_cost_ms: round(median(p99s['on'] ?? []) - median(p99s['off'] ?? []), 1),
    // Every round's answers pooled per variant, and the on − off difference of the pooled p99s
    // with its 90% interval over the rounds resampled in pairs ([difference, low, high]).
    on_p99_ms_pooled: pooledP99('on'),
    off_p99_ms_pooled: pooledP99('off'),
    accounting_p99_cost_ms_pooled: pairedP99('on', 'off'),
    // The same without each attack's first 500 ms (RAMP_MS): the cost under steady load.
    accounting_p99_cost_ms_pooled_after_500ms: pairedP99('on', 'off', steadyHistograms),
    ...(!tried
      ? {}
      : {
          tried_node_flags: (tryNodeFlags ?? []).join(' '),
          tried_env: tryEnv,
          on_tried_p99_ms_median: median(p99s['on_tried'] ?? []),
          on_tried_p99_ms_pooled: pooledP99('on_tried'),
          // With --try-node-flags "" (and no --try-env) an A/A: how far apart two identical builds read here.
          tried_vs_on_p99_ms_pooled: pairedP99('on_tried', 'on'),
        }),
    ...(burner === undefined
      ? {}
      : {
          burn_ms_per_100ms: tryBurn,
          burn_nice: tryBurnNice,
          off_burn_p99_ms_pooled: pooledP99('off_burn'),
          // What that much CPU elsewhere costs off's p99, and how far the accounting is from it.
          burn_p99_cost_ms_pooled: pairedP99('off_burn', 'off'),
          on_vs_off_burn_p99_ms_pooled: pairedP99('on', 'off_burn'),
        }),
  });
} finally {
  burner?.stdin?.end();
  burner?.kill('SIGCONT');
  await platform.stop();
  if (process.env['BENCH_KEEP'] === undefined) rmSync(work, { recursive: true, force: true });
}
process.exit(0);
