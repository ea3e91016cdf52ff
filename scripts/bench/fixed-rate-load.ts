/**
 * Open-loop load for the public API benchmark (public-api.bench.ts): vegeta sends requests at a
 * fixed rate whatever the server's answers do, so latency is read at a stated load instead of at
 * saturation. wrk (closed loop, 50 connections each sending its next request on the answer) keeps
 * every server at 100% of the machine, where p99 is queueing and scheduling on the two shared
 * cores (bare node:http measures ~90 ms there): it gives throughput, not latency under a load.
 * vegeta is installed by scripts/bench/install-tools.sh (go install from the Go module proxy).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './bench-support.js';

/** Where install-tools.sh puts vegeta; PATH otherwise. */
const VEGETA = [join(repoRoot, 'var/tools/bin/vegeta')].find((path) => existsSync(path)) ?? 'vegeta';

export interface FixedRateOptions {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** GET `${path}${address}` for each address, round robin. */
  readonly path: string;
  readonly addresses: readonly string[];
  readonly apiKey?: string;
  readonly ratePerSecond: number;
  readonly seconds: number;
  /** Most connections (and requests in flight); a server that falls behind meets this bound. */
  readonly connections: number;
  /** Where the targets file is written. */
  readonly workDir: string;
}

export interface FixedRateResult {
  readonly requests: number;
  /** Requests per second actually sent (below the asked rate when the connections were all busy). */
  readonly rate: number;
  /** Share of answers with a status below 400, 0–1. */
  readonly success: number;
  readonly p50_ms: number;
  readonly p90_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

interface VegetaReport {
  requests: number;
  rate: number;
  success: number;
  latencies: Record<'50th' | '90th' | '99th' | 'max', number>;
}

const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;

/** vegeta's targets file for `options` (GET path + address, round robin; the key as a header). */
function writeVegetaTargets(options: FixedRateOptions): string {
  const targets = join(options.workDir, `vegeta-targets-${options.origin.replace(/\W+/g, '-')}.txt`);
  const header = options.apiKey ? `Authorization: Bearer ${options.apiKey}\n` : '';
  const count = Math.min(options.addresses.length, Math.ceil(options.ratePerSecond * options.seconds));
  writeFileSync(
    targets,
    options.addresses
      .slice(0, count)
      .map((address) => `GET ${options.origin}${options.path}${address}\n${header}`)
      .join('\n'),
  );
  return targets;
}

/** vegeta attack's arguments: a fixed rate, bounded by -duration, at most `connections` in flight. */
function vegetaAttackArgs(options: FixedRateOptions, targets: string): string[] {
  const connections = String(options.connections);
  return [
    'attack',
    `-targets=${targets}`,
    `-rate=${Math.round(options.ratePerSecond)}/s`,
    `-duration=${options.seconds}s`,
    '-timeout=10s',
    `-connections=${connections}`,
    `-max-connections=${connections}`,
    `-workers=${connections}`,
    `-max-workers=${connections}`,
  ];
}

/**
 * One vegeta attack at a fixed rate, then `vegeta <reader...>` (report, encode) on its results,
 * bounded by -duration and killed if it overruns by 30 s; resolves with the reader's output. The
 * reader runs after the attack, not beside it: decoding and encoding every result as it arrives
 * took CPU from the two cores the server under test shares with the load generator.
 */
export function runVegeta(options: FixedRateOptions, reader: readonly string[]): Promise<string> {
  const targets = writeVegetaTargets(options);
  const results = `${targets}.results`;
  const attack = [...vegetaAttackArgs(options, targets), `-output=${results}`];
  const quoted = (args: readonly string[]) => args.map((arg) => `'${arg}'`).join(' ');
  const script = `"$VEGETA" ${quoted(attack)} && "$VEGETA" ${quoted(reader)} '${results}'; status=$?; rm -f '${results}'; exit $status`;
  // Its own process group: an overrun kills vegeta with the shell.
  const child = spawn('bash', ['-c', script], {
    env: { ...process.env, VEGETA },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: Buffer[] = [];
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const killer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), (options.seconds + 30) * 1000);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) reject(new Error(`vegeta failed (exit ${code}; run scripts/bench/install-tools.sh):\n${errors}`));
      else resolve(Buffer.concat(output).toString());
    });
  });
}

/** One vegeta attack at a fixed rate: its report. */
export async function runFixedRate(options: FixedRateOptions): Promise<FixedRateResult> {
  const report = JSON.parse(await runVegeta(options, ['report', '-type=json'])) as VegetaReport;
  return {
    requests: report.requests,
    rate: Math.round(report.rate),
    success: report.success,
    p50_ms: ms(report.latencies['50th']),
    p90_ms: ms(report.latencies['90th']),
    p99_ms: ms(report.latencies['99th']),
    max_ms: ms(report.latencies.max),
  };
}
