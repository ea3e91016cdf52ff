/** Pieces of the public API benchmark (public-api.bench.ts): addresses, wrk runs, load and RSS readings. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { reservedIpv4 } from '../../services/lookup-engine/src/ip/reserved-ranges.js';
import { repoRoot, seeded } from './bench-support.js';

export const WRK_SCRIPT = join(repoRoot, 'scripts/bench/public-api.lua');

/**
 * Seeded random public IPv4 addresses (no private, loopback, documentation, multicast, ... block:
 * those answer without a lookup and are not counted, so they would flatter the API's figures).
 */
export function randomPublicIpv4(count: number, seed: number): string[] {
  const next = seeded(seed);
  const out: string[] = [];
  while (out.length < count) {
    const v = Math.floor(next() * 2 ** 32) >>> 0;
    if (reservedIpv4(v) !== ReservedReason.RESERVED_REASON_UNSPECIFIED) continue;
    out.push(`${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`);
  }
  return out;
}

export function writeLines(file: string, lines: readonly string[]): string {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export interface WrkOptions {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The file of addresses or JSON bodies, one per line (public-api.lua). */
  readonly lines: string;
  readonly method?: 'GET' | 'POST';
  /** The path, or for GET the prefix each address is appended to. */
  readonly path: string;
  readonly apiKey?: string;
  readonly seconds: number;
  readonly connections: number;
  readonly threads: number;
}

export interface WrkResult {
  readonly requests: number;
  readonly duration_us: number;
  readonly bytes: number;
  readonly errors_connect: number;
  readonly errors_read: number;
  readonly errors_write: number;
  /** Answers with a status of 400 or more (wrk counts them; their latency is in the figures). */
  readonly errors_status: number;
  readonly errors_timeout: number;
  readonly latency_mean_us: number;
  readonly latency_p50_us: number;
  readonly latency_p90_us: number;
  readonly latency_p99_us: number;
  readonly latency_max_us: number;
}

/** One wrk run: -d bounded, killed if it overruns by 30 s. Resolves with public-api.lua's result line. */
export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    WRK_SCRIPT,
    `${options.origin}${options.method === 'POST' ? options.path : '/'}`,
  ];
  const child = spawn('wrk', args, {
    env: {
      ...process.env,
      BENCH_LINES: options.lines,
      BENCH_METHOD: options.method ?? 'GET',
      BENCH_PATH: options.path,
      BENCH_API_KEY: options.apiKey ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), (options.seconds + 30) * 1000);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(killer);
      reject(new Error(`cannot run wrk (${error.message}); run scripts/bench/install-tools.sh`));
    });
    child.once('exit', (code) => {
      clearTimeout(killer);
      const line = /^WRK_RESULT (.*)$/m.exec(output);
      if (code !== 0 || line === null) reject(new Error(`wrk ${args.join(' ')} failed (exit ${code}):\n${output}`));
      else resolve(JSON.parse(line[1] as string) as WrkResult);
    });
  });
}

/** Requests per second of a wrk run, counting only answers below 400. */
export function okPerSecond(result: WrkResult): number {
  return (result.requests - result.errors_status) / (result.duration_us / 1e6);
}

/** The 1-minute load average, printed beside every figure: other work on the machine moves them. */
export function load1(): number {
  return +(loadavg()[0] ?? 0).toFixed(2);
}

/** VmRSS and VmHWM (peak) of a process in MiB, from /proc/<pid>/status. */
export function memoryMiB(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: +(kib('VmRSS') / 1024).toFixed(1), hwm: +(kib('VmHWM') / 1024).toFixed(1) };
}

/**
 * Samples a process's RSS every `everyMs` until stopped: the samples show whether memory stays
 * flat or grows with the work (VmHWM alone gives only the peak).
 */
export function sampleRss(pid: number, everyMs = 100) {
  const samples: Array<{ t_ms: number; rss_mib: number }> = [];
  const started = Date.now();
  const timer = setInterval(() => {
    try {
      samples.push({ t_ms: Date.now() - started, rss_mib: memoryMiB(pid).rss });
    } catch {
      // The process exited: nothing more to sample.
    }
  }, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

export function round(value: number, digits = 2): number {
  return +value.toFixed(digits);
}
