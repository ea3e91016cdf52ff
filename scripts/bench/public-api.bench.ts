/**
 * Public API benchmark (issue 11, services/bff-en): wrk against bff-en and against baselines
 * measured in the same run on the same machine, the same addresses and the same wrk settings.
 * Prints one JSON line per measurement and a summary line with medians and ratios. Never asserts:
 * the issue's targets are printed beside the figures. Bounded: every wrk run is -d bounded, bulk
 * jobs have a deadline, and everything it started is stopped at the end.
 *
 *   scripts/bench/install-tools.sh     # wrk from Debian, once
 *   make dataset build && make stack-up   # the services run as built against this stack
 *   node --conditions=source --import tsx scripts/bench/public-api.bench.ts [--runs 3] [--seconds 10]
 *        [--connections 50] [--batch-connections 16] [--threads 1] [--only ip,batch,bulk]
 *        [--bulk-lines 1000000] [--baselines-only] [--cpu-profile [ip|batch]] [--open-loop-percent 70]
 *        [--try-node-flags "<node flags>"] [--against <saved build>]
 *
 * Every wrk run also reports where the machine's CPU went per request (process-cpu.ts):
 * `<target>_cpu_us_per_req_<group>` for the server, its dependencies, wrk and the rest, and
 * `_machine` for the whole machine (kernel included): on two shared cores, the CPU an answer
 * costs across every process sets the ceiling. `<target>_server_main_{run,wait,idle}_percent`
 * split the server's main thread's wall time into running, waiting for a core and idle, and
 * `<target>_server_other_threads_cpu_us_per_req` is its GC helpers' and workers' CPU.
 *
 * Sections: ip (GET /v1/ip/{ip}: bff-en with accounting on and off, bare node:http, bare Express 5,
 * the maxmind peer, with wrk (closed loop: throughput); the same five again with vegeta at one
 * fixed rate, --open-loop-percent of Express's throughput (open loop: latency at a stated load,
 * `get_ip_open_loop_*`, fixed-rate-load.ts); then bff-en once more with stats consuming its ledger, and stats' lag,
 * stats-lag.ts), batch (POST /v1/batch of 1,000 addresses, beside the maxmind peer's batch
 * route), bulk (POST /v1/bulk of 1,000,000 lines on a fresh bff-en: wall time to completion, RSS).
 * Before any section, every address the ip and batch loads send goes once through each bff-en
 * (lookup-warm-up.ts), so the first run does not pay for the engine's start.
 * --cpu-profile adds one load (GET, or `batch`) on a profiled bff-en (and lookup engine) and prints their top 10
 * self-time functions and files and the inclusive time per package / service folder. --baselines-only measures the baselines alone (no services started).
 * --try-node-flags adds a third bff-en (accounting on) started with those node flags, `bff_en_tried`,
 * measured in turn with the others in the ip and batch sections (`tried_vs_bff_en`): a V8 or
 * Node setting judged against the same build in the same run. --against <name> adds a bff-en
 * (accounting on) run from a build saved by `make bench-render BENCH_ARGS="--save-build <name>"`,
 * `bff_en_against`, likewise measured in turn (`bff_en_vs_against`): a change to bff-en judged
 * against the build before it in one run (the lookup engine and the packages stay today's). The
 * compared variants take turns going first (inRunOrder): give an even --runs.
 *
 * The stack is KAFKA_BROKERS / MONGO_URL / REDIS_URL, else the stack.sh ports (KAFKA_PORT, ...);
 * the services use the port base BENCH_PORT_BASE (default 19450) and the shared test system's
 * layout (scripts/test/system), with the plan catalogue public-api-plans.yaml.
 * BENCH_TELEMETRY=1 loads OpenTelemetry into bff-en first, as infra/local/services.sh does (needs
 * services/common built). BENCH_BFF_EN_ENV="NAME=value,..." adds variables to every bff-en; BENCH_LOG_LEVEL sets its log level
 * (default info, as in production); BENCH_KEEP=1 keeps the work folder (logs, profiles).
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestAccount } from '../test/system/index.js';
import {
  emit,
  median,
  nodeFlagsOption,
  numberOption as option,
  repoRoot,
  savedBuildDir,
  startServer,
  stopServer,
  textOption,
} from './bench-support.js';
import { runFixedRate } from './fixed-rate-load.js';
import { runBulkJob } from './public-api-bulk.js';
import { cpuPerRequest, cpuSnapshot } from './process-cpu.js';
import { warmLookups } from './lookup-warm-up.js';
import { BenchPlatform } from './public-api-platform.js';
import { topSelfTime } from './public-api-profile.js';
import { StatsLagSampler } from './stats-lag.js';
import {
  load1,
  okPerSecond,
  randomPublicIpv4,
  round,
  runWrk,
  writeLines,
  type WrkOptions,
  type WrkResult,
} from './public-api-support.js';

const runs = option('runs', 3);
const seconds = option('seconds', 10);
const connections = option('connections', 50);
// A batch answer is ~1,000 times a single one: fewer connections keep the same work in flight.
const batchConnections = option('batch-connections', 16);
// One wrk thread drives 50 loopback connections easily and leaves the other core to the servers.
const threads = option('threads', 1);
const bulkLines = option('bulk-lines', 1_000_000);
// The open-loop rate as a share (in percent) of Express's throughput measured in the same run.
const openLoopPercent = option('open-loop-percent', 70);
const warmUpSeconds = Math.min(seconds, 3);
const onlyAt = process.argv.indexOf('--only');
const only = (onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '') : 'ip,batch,bulk').split(',');
const baselinesOnly = process.argv.includes('--baselines-only');
// --cpu-profile [ip|batch]: the load to profile bff-en under (default ip).
const profileAt = process.argv.indexOf('--cpu-profile');
const cpuProfile = profileAt < 0 ? undefined : process.argv[profileAt + 1] === 'batch' ? 'batch' : 'ip';
const tryNodeFlags = nodeFlagsOption('try-node-flags');
const against = textOption('against');
if (against !== undefined && !existsSync(savedBuildDir(against))) {
  console.error(`bench: no saved build ${against}; make one with make bench-render BENCH_ARGS="--save-build ${against}"`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'ipdata-bench-api-'));
const addresses = randomPublicIpv4(1_000_000, 11);
const addressFile = writeLines(join(work, 'addresses.txt'), addresses);
// 100 bodies of 1,000 other addresses each, one JSON array per line.
const batchAddresses = randomPublicIpv4(100_000, 12);
const bodies = Array.from({ length: 100 }, (_, b) => JSON.stringify(batchAddresses.slice(b * 1000, b * 1000 + 1000)));
const bodyFile = writeLines(join(work, 'batches.txt'), bodies);
const summary: Record<string, unknown> = {
  bench: 'summary',
  runs,
  seconds,
  connections,
  batch_connections: batchConnections,
  wrk_threads: threads,
  bff_en_telemetry: process.env['BENCH_TELEMETRY'] === '1',
  targets: {
    get_ip_vs_express: '>= 1.5',
    get_ip_p99_ms: '<= 20',
    accounting_p99_cost_ms: '<= 1',
    get_ip_open_loop_bff_en_p99_ms: '<= 20 (the p99 target read at a fixed rate, open loop)',
    get_ip_open_loop_accounting_p99_cost_ms: '<= 1',
    batch_addresses_per_s: '>= 200000',
  },
};

interface Target {
  readonly name: string;
  readonly wrk: Omit<WrkOptions, 'seconds' | 'connections' | 'threads'>;
}

function figures(
  name: string,
  result: WrkResult,
  load: number,
  perRequest: number,
  cpu: Record<string, number> = {},
): Record<string, number> {
  const perSecond = okPerSecond(result);
  return {
    ...Object.fromEntries(Object.entries(cpu).map(([key, value]) => [`${name}_${key}`, value])),
    [`${name}_req_per_s`]: Math.round(perSecond),
    ...(perRequest > 1 ? { [`${name}_addresses_per_s`]: Math.round(perSecond * perRequest) } : {}),
    [`${name}_p50_ms`]: round(result.latency_p50_us / 1000, 3),
    [`${name}_p99_ms`]: round(result.latency_p99_us / 1000, 3),
    [`${name}_non_2xx`]: result.errors_status,
    [`${name}_socket_errors`]: result.errors_connect + result.errors_read + result.errors_write + result.errors_timeout,
    [`${name}_load1`]: load,
  };
}

/** The bff-en variants compared with each other in one run (the build, a saved build, node flags). */
const COMPARED = new Set(['bff_en', 'bff_en_tried', 'bff_en_against']);

/**
 * The targets in the order run `run` measures them: the compared bff-en variants take turns going
 * first (odd runs as listed, even runs reversed), the rest keep their places. An A/A run (today's
 * build against a saved copy of itself, always in the same order) put the one measured first at
 * 0.77 / 0.83 of the other, with more CPU per request: comparisons of ~10% read as losses.
 * Use an even --runs for a balanced comparison.
 */
function inRunOrder(targets: readonly Target[], run: number): Target[] {
  const compared = targets.filter((target) => COMPARED.has(target.name)).reverse();
  if (run % 2 === 1 || compared.length < 2) return [...targets];
  let next = 0;
  return targets.map((target) => (COMPARED.has(target.name) ? (compared[next++] as Target) : target));
}

/**
 * wrk over every target, `runs` times round robin (the machine's swings fall on all alike), after
 * an untimed warm-up of each. Ratios are medians of each run's ratio; medians of every figure go
 * into the summary under `<bench>_`.
 */
async function measure(
  bench: string,
  targets: readonly Target[],
  options: { connections: number; perRequest?: number },
  extra: (row: Record<string, number>) => Record<string, number>,
): Promise<void> {
  const settings = { seconds, connections: options.connections, threads };
  for (const target of targets) await runWrk({ ...target.wrk, ...settings, seconds: warmUpSeconds });
  const rows: Array<Record<string, number>> = [];
  for (let run = 1; run <= runs; run++) {
    const row: Record<string, number> = {};
    for (const target of inRunOrder(targets, run)) {
      const load = load1();
      const before = cpuSnapshot();
      const result = await runWrk({ ...target.wrk, ...settings });
      const cpu = cpuPerRequest(before, cpuSnapshot(), result.requests);
      Object.assign(row, figures(target.name, result, load, options.perRequest ?? 1, cpu));
    }
    Object.assign(row, extra(row));
    rows.push(row);
    emit({ bench, run, ...row });
  }
  for (const key of Object.keys(rows[0] ?? {}))
    summary[`${bench}_${key}`] = round(median(rows.map((row) => row[key] as number)), 3);
}

/**
 * The same targets at one fixed rate (fixed-rate-load.ts, open loop), `runs` times round robin:
 * latency at a stated load. Medians go into the summary under `<bench>_`.
 */
async function measureFixedRate(
  bench: string,
  targets: readonly Target[],
  ratePerSecond: number,
  extra: (row: Record<string, number>) => Record<string, number>,
): Promise<void> {
  summary[`${bench}_rate_per_s`] = ratePerSecond;
  const rows: Array<Record<string, number>> = [];
  for (let run = 1; run <= runs; run++) {
    const row: Record<string, number> = {};
    for (const target of inRunOrder(targets, run)) {
      const load = load1();
      const result = await runFixedRate({
        origin: target.wrk.origin,
        path: target.wrk.path,
        addresses,
        ...(target.wrk.apiKey ? { apiKey: target.wrk.apiKey } : {}),
        ratePerSecond,
        seconds,
        connections,
        workDir: work,
      });
      for (const [key, value] of Object.entries({ ...result, load1: load })) row[`${target.name}_${key}`] = value;
    }
    Object.assign(row, extra(row));
    rows.push(row);
    emit({ bench, run, rate_per_s: ratePerSecond, ...row });
  }
  for (const key of Object.keys(rows[0] ?? {}))
    summary[`${bench}_${key}`] = round(median(rows.map((row) => row[key] as number)), 3);
}

/** a / b in requests per second, or in addresses per second for batches (rounded to whole requests they lose precision). */
const ratio = (row: Record<string, number>, a: string, b: string) => {
  const rate = (name: string) => row[`${name}_addresses_per_s`] ?? row[`${name}_req_per_s`] ?? 0;
  return round(rate(a) / (rate(b) || 1));
};

/** One request before the load: what it answers (status, bytes) goes into the summary, a failure stops the section. */
async function probe(name: string, url: string, init: RequestInit = {}): Promise<string> {
  const answer = await fetch(url, init);
  const body = await answer.text();
  summary[`${name}_probe`] = { status: answer.status, bytes: body.length };
  if (answer.status !== 200) throw new Error(`${name}: ${url} answered ${answer.status}: ${body.slice(0, 300)}`);
  return body;
}

const peers: Array<{ child: ChildProcess }> = [];
async function startPeer(server: 'node-http' | 'express' | 'maxmind', fixedJsonFile?: string): Promise<string> {
  const peer = await startServer(join(repoRoot, 'scripts/bench/peer-servers.ts'), {
    SERVER: server,
    ...(fixedJsonFile ? { FIXED_JSON_FILE: fixedJsonFile } : {}),
  });
  peers.push(peer);
  return `http://127.0.0.1:${peer.port}`;
}

/** Runs one section; a failure is printed and noted in the summary, and the next section runs. */
async function section(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    console.error(`bench: section ${name} failed:`, error);
    summary[`${name}_error`] = error instanceof Error ? error.message : String(error);
  }
}

let platform: BenchPlatform | undefined;
try {
  let apiKey = '';
  let bffOn: Awaited<ReturnType<BenchPlatform['startBffEn']>> | undefined;
  let bffOff: typeof bffOn;
  let bffTried: typeof bffOn;
  let bffAgainst: typeof bffOn;
  if (!baselinesOnly) {
    const startedAt = Date.now();
    platform = await BenchPlatform.start(
      join(work, 'system'),
      Number(process.env['BENCH_PORT_BASE'] ?? 19450),
      cpuProfile !== undefined,
    );
    [bffOn, bffOff, bffTried, bffAgainst] = await Promise.all([
      platform.startBffEn('bff-en-on'),
      platform.startBffEn('bff-en-off', { PUBLIC_API_ACCOUNTING: 'off' }),
      tryNodeFlags === undefined ? undefined : platform.startBffEn('bff-en-tried', {}, tryNodeFlags),
      against === undefined ? undefined : platform.startBffEn('bff-en-against', {}, [], savedBuildDir(against)),
    ]);
    if (tryNodeFlags !== undefined) summary['tried_node_flags'] = tryNodeFlags.join(' ');
    if (against !== undefined) summary['against'] = against;
    apiKey = (await createTestAccount({ plan: 'api-bench', keyName: 'bench' })).apiKey;
    summary['platform_start_s'] = round((Date.now() - startedAt) / 1000, 1);
    if (only.includes('ip') || only.includes('batch')) {
      // The accounting-off bff-en first: its pass splits the engine's records without quota or ledger work.
      const servers = [bffOff, bffOn, bffTried, bffAgainst].filter((server) => server !== undefined);
      const warmed = await warmLookups(
        servers.map((server) => server.origin),
        apiKey,
        [addresses, batchAddresses],
      );
      summary['lookup_warm_up'] = warmed;
      process.stderr.write(
        `bench: lookups warmed up (${warmed.addresses} addresses through ${servers.length} bff-en in ${warmed.seconds} s; ` +
          `the engine's CPU per 1,000 ${warmed.engineUsPer1000First ?? '?'} µs in the first pass, ${warmed.engineUsPer1000Last ?? '?'} µs in the last)\n`,
      );
    }
  }
  const auth = { authorization: `Bearer ${apiKey}` };

  if (only.includes('ip')) {
    await section('get_ip', async () => {
      // The baselines answer bff-en's own answer for one address, so every server writes as many bytes.
      let fixedJsonFile: string | undefined;
      if (bffOn !== undefined) {
        fixedJsonFile = join(work, 'answer.json');
        writeFileSync(fixedJsonFile, await probe('bff_en', `${bffOn.origin}/v1/ip/8.8.8.8`, { headers: auth }));
        await probe('bff_en_off', `${bffOff!.origin}/v1/ip/8.8.8.8`, { headers: auth });
      }
      const [nodeHttp, express, maxmind] = await Promise.all([
        startPeer('node-http', fixedJsonFile),
        startPeer('express', fixedJsonFile),
        startPeer('maxmind'),
      ]);
      await probe('maxmind_peer', `${maxmind}/v1/ip/8.8.8.8`);
      const get = (origin: string) => ({ origin, lines: addressFile, path: '/v1/ip/', apiKey });
      const targets: Target[] = [
        ...(bffOn ? [{ name: 'bff_en', wrk: get(bffOn.origin) }] : []),
        ...(bffTried ? [{ name: 'bff_en_tried', wrk: get(bffTried.origin) }] : []),
        ...(bffAgainst ? [{ name: 'bff_en_against', wrk: get(bffAgainst.origin) }] : []),
        ...(bffOff ? [{ name: 'bff_en_off', wrk: get(bffOff.origin) }] : []),
        { name: 'node_http', wrk: get(nodeHttp) },
        { name: 'express', wrk: get(express) },
        { name: 'maxmind_peer', wrk: get(maxmind) },
      ];
      await measure('get_ip', targets, { connections }, (row) => ({
        ...(bffOn
          ? {
              bff_en_vs_express: ratio(row, 'bff_en', 'express'),
              bff_en_vs_node_http: ratio(row, 'bff_en', 'node_http'),
              bff_en_vs_maxmind_peer: ratio(row, 'bff_en', 'maxmind_peer'),
              accounting_p99_cost_ms: round((row['bff_en_p99_ms'] ?? 0) - (row['bff_en_off_p99_ms'] ?? 0), 3),
              accounting_throughput_ratio: ratio(row, 'bff_en', 'bff_en_off'),
            }
          : {}),
        ...(bffTried ? { tried_vs_bff_en: ratio(row, 'bff_en_tried', 'bff_en') } : {}),
        ...(bffAgainst ? { bff_en_vs_against: ratio(row, 'bff_en', 'bff_en_against') } : {}),
        express_vs_node_http: ratio(row, 'express', 'node_http'),
        maxmind_peer_vs_express: ratio(row, 'maxmind_peer', 'express'),
      }));
      // Latency at a fixed load below every server's saturation (a share of Express's throughput
      // above): what a client sees when the machine is not at 100%, and the accounting's p99 cost.
      const rate = Math.round(((summary['get_ip_express_req_per_s'] as number) * openLoopPercent) / 100);
      await measureFixedRate('get_ip_open_loop', targets, rate, (row): Record<string, number> =>
        bffOn ? { accounting_p99_cost_ms: round((row['bff_en_p99_ms'] ?? 0) - (row['bff_en_off_p99_ms'] ?? 0), 3) } : {},
      );
      if (platform && bffOn) {
        // Once more with stats consuming the ledger on the same two cores (public-api-platform.ts,
        // startStats): bff-en's figures beside it, and stats' lag (issue 12: stats keeps up).
        const stats = await platform.startStats();
        const lag = await StatsLagSampler.start(platform.kafka(), platform.statsGroupId);
        const load = load1();
        const loaded = figures(
          'bff_en_with_stats',
          await runWrk({ ...get(bffOn.origin), seconds, connections, threads }),
          load,
          1,
        );
        const row = { ...loaded, ...(await lag.stop()) };
        await stats.stop();
        emit({ bench: 'get_ip_with_stats', ...row });
        Object.assign(summary, row);
      }
    });
  }

  if (only.includes('batch')) {
    await section('batch', async () => {
      const maxmind = await startPeer('maxmind');
      const post = (origin: string) => ({ origin, lines: bodyFile, method: 'POST' as const, path: '/v1/batch', apiKey });
      const init = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: bodies[0] };
      if (bffOn) {
        // Items answered with an error (quota, invalid) would count as addresses served: say how many.
        const items = JSON.parse(await probe('batch_bff_en', `${bffOn.origin}/v1/batch`, init)) as Array<{ error?: unknown }>;
        summary['batch_bff_en_probe_items'] = {
          items: items.length,
          errors: items.filter((item) => item.error !== undefined).length,
        };
      }
      await probe('batch_maxmind_peer', `${maxmind}/v1/batch`, init);
      const targets: Target[] = [
        ...(bffOn ? [{ name: 'bff_en', wrk: post(bffOn.origin) }] : []),
        ...(bffTried ? [{ name: 'bff_en_tried', wrk: post(bffTried.origin) }] : []),
        ...(bffAgainst ? [{ name: 'bff_en_against', wrk: post(bffAgainst.origin) }] : []),
        { name: 'maxmind_peer', wrk: post(maxmind) },
      ];
      await measure(
        'batch_1000',
        targets,
        { connections: batchConnections, perRequest: 1000 },
        (row): Record<string, number> => ({
          ...(bffOn ? { bff_en_vs_maxmind_peer: ratio(row, 'bff_en', 'maxmind_peer') } : {}),
          ...(bffTried ? { tried_vs_bff_en: ratio(row, 'bff_en_tried', 'bff_en') } : {}),
          ...(bffAgainst ? { bff_en_vs_against: ratio(row, 'bff_en', 'bff_en_against') } : {}),
        }),
      );
    });
  }

  const services = platform;
  if (only.includes('bulk') && services !== undefined) {
    await section('bulk', async () => {
      // A fresh bff-en: its VmHWM is then the peak of its start and the bulk jobs, not of the loads above.
      await bffOn?.stop();
      await bffOff?.stop();
      await bffTried?.stop();
      await bffAgainst?.stop();
      // The heap each full GC leaves (public-api-heap-trace.mjs): RSS alone mixes what it holds with garbage.
      const heapTrace = join(work, 'bff-en-bulk.heap.ndjson');
      const bulk = await services.startBffEn('bff-en-bulk', {
        NODE_OPTIONS: `--import ${join(repoRoot, 'scripts/bench/public-api-heap-trace.mjs')}`,
        BENCH_HEAP_TRACE_FILE: heapTrace,
      });
      const lines = randomPublicIpv4(bulkLines, 13);
      const file = writeLines(join(work, 'bulk.txt'), lines);
      // First a job a tenth the size: its peak RSS beside the full job's shows whether memory grows with the file.
      const smallLines = Math.max(1, Math.floor(bulkLines / 10));
      const small = await runBulkJob(
        bulk.origin,
        bulk.pid,
        writeLines(join(work, 'bulk-small.txt'), lines.slice(0, smallLines)),
        apiKey,
        smallLines,
        heapTrace,
      );
      emit({ bench: 'bulk_small', ...small, load1: load1() });
      summary['bulk_small_lines'] = smallLines;
      summary['bulk_small_rss_peak_sampled_mib'] = small.rss_peak_sampled_mib;
      summary['bulk_small_vm_hwm_mib'] = small.vm_hwm_mib;
      summary['bulk_small_heap_after_full_gc_max_mib'] = small.heap_after_full_gc_first_last_max_mib?.[2] ?? null;
      const rows = [];
      for (let run = 1; run <= runs; run++) {
        const load = load1();
        const row = { ...(await runBulkJob(bulk.origin, bulk.pid, file, apiKey, bulkLines, heapTrace)), load1: load };
        rows.push(row);
        emit({ bench: 'bulk', run, ...row });
      }
      for (const key of [
        'wall_s',
        'lines_per_s',
        'upload_s',
        'result_download_s',
        'rss_peak_sampled_mib',
        'vm_hwm_mib',
      ] as const) {
        summary[`bulk_${key}`] = round(median(rows.map((row) => row[key])), 2);
      }
      summary['bulk_lines'] = bulkLines;
      summary['bulk_rss_peak_per_run_mib'] = rows.map((row) => row.rss_peak_sampled_mib);
      // Flat when the heap the job's full GCs leave stays where the small job's did.
      summary['bulk_heap_after_full_gc_max_per_run_mib'] = rows.map(
        (row) => row.heap_after_full_gc_first_last_max_mib?.[2] ?? null,
      );
    });
  }

  if (cpuProfile !== undefined && services !== undefined) {
    await section('cpu_profile', async () => {
      // Profiled during the timed load only (public-api-cpu-profile.mjs): SIGUSR2 starts, SIGUSR2 writes.
      const file = join(work, 'bff-en.cpuprofile');
      const profiled = await services.startBffEn('bff-en-profile', {
        NODE_OPTIONS: `--import ${join(repoRoot, 'scripts/bench/public-api-cpu-profile.mjs')}`,
        BENCH_CPU_PROFILE_FILE: file,
      });
      const load =
        cpuProfile === 'batch'
          ? {
              origin: profiled.origin,
              lines: bodyFile,
              method: 'POST' as const,
              path: '/v1/batch',
              apiKey,
              connections: batchConnections,
              threads,
            }
          : { origin: profiled.origin, lines: addressFile, path: '/v1/ip/', apiKey, connections, threads };
      await runWrk({ ...load, seconds: warmUpSeconds });
      profiled.kill('SIGUSR2');
      services.signal('lookup-engine', 'SIGUSR2');
      const result = await runWrk({ ...load, seconds });
      profiled.kill('SIGUSR2');
      services.signal('lookup-engine', 'SIGUSR2');
      const engineFile = services.engineProfileFile;
      for (let waited = 0; !(existsSync(file) && existsSync(engineFile)) && waited < 30_000; waited += 100) await sleep(100);
      await profiled.stop();
      const what = cpuProfile === 'batch' ? 'POST /v1/batch of 1,000' : 'GET /v1/ip/{ip}';
      const reqPerSecond = Math.round(okPerSecond(result));
      for (const [name, profile] of [
        ['bff_en', file],
        ['lookup_engine', engineFile],
      ] as const) {
        emit({
          bench: 'cpu_profile',
          target: `${name} under ${what} (timed load only; percent of busy time)`,
          req_per_s_under_profiler: reqPerSecond,
          ...(existsSync(profile) ? topSelfTime(profile) : { top_self_time: 'no profile written' }),
        });
      }
    });
  }
} finally {
  for (const { child } of peers) await stopServer(child);
  await platform?.stop();
  if (process.env['BENCH_KEEP'] === undefined) rmSync(work, { recursive: true, force: true });
  else console.error(`bench: files kept in ${work}`);
}
emit(summary);
