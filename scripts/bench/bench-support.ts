/** Shared pieces of the benchmarks: seeded addresses, statistics, child servers. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { loadPackageDefinition, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { Kafka } from 'kafkajs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@ipdata/common/testing';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The same seed gives the same addresses in every run and for every implementation. */
export const seeded = seededRandom;

/**
 * Addresses as a server receives them: decoded from bytes (gRPC, HTTP), i.e. flat strings. Text
 * built by concatenation is a rope that V8 reads through an indirection, which would measure
 * string internals instead of the lookup, for every implementation alike.
 */
function asReceived(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

export function randomIpv4(count: number, seed: number): string[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const v = Math.floor(next() * 2 ** 32);
    return asReceived(`${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`);
  });
}

/**
 * Random IPv6 addresses inside announced prefixes (a random row of the ASN CSV, a random address
 * in it). Uniform addresses over 2000::/3 would mostly fall into unallocated space, where an mmdb
 * walk stops after a few bits; real traffic comes from allocated space.
 */
export function randomIpv6(count: number, seed: number, asnIpv6Csv: string): string[] {
  const next = seeded(seed);
  const rows = readFileSync(asnIpv6Csv, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(',', 2) as [string, string]);
  const toBig = (text: string) => {
    const [head = '', tail = ''] = text.split('::');
    const left = head === '' ? [] : head.split(':');
    const right = tail === '' ? [] : tail.split(':');
    const groups = text.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
    return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
  };
  const word = () => BigInt(Math.floor(next() * 2 ** 32));
  return Array.from({ length: count }, () => {
    const [first, last] = rows[Math.floor(next() * rows.length)] as [string, string];
    const start = toBig(first);
    const span = toBig(last) - start + 1n;
    const value = start + (((word() << 96n) | (word() << 64n) | (word() << 32n) | word()) % span);
    const groups: string[] = [];
    for (let g = 7; g >= 0; g--) groups.push(((value >> BigInt(g * 16)) & 0xffffn).toString(16));
    return asReceived(groups.join(':'));
  });
}

/**
 * Runs `calls` calls with `inFlight` concurrent callers; `call` gets the call's number. Returns wall
 * seconds and the per-call latencies, sorted.
 */
export async function drive(calls: number, inFlight: number, call: (index: number) => Promise<unknown>) {
  const latencies = new Float64Array(calls);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        const i = next++;
        const t = performance.now();
        await call(i);
        latencies[i] = performance.now() - t;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort() };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** `--<name> <n>` from the command line: a positive number, else `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return Math.max(1, Number(at >= 0 ? process.argv[at + 1] : fallback) || fallback);
}

/**
 * What a saved build holds (make bench-render BENCH_ARGS="--save-build <name>"): the lookup
 * engine's and bff-en's build, and what bff-en reads beside it. Benchmarks run it against
 * today's build in the same run (`--against <name>`).
 */
export const SAVED_BUILD_FOLDERS = ['services/lookup-engine/dist', 'services/bff-en/dist', 'services/bff-en/openapi'];

/**
 * The folder of a saved build, laid out as the repository. Its bff-en gets the saved lookup
 * engine's client for @ipdata/lookup-engine (a node_modules link in the folder and the package's
 * manifest beside the saved dist), so a change to the client and bff-en together is measured
 * whole; common and proto come from today's build.
 */
export function savedBuildDir(name: string): string {
  const dir = join(repoRoot, 'var/bench-builds', name);
  const engine = join(dir, 'services/lookup-engine');
  const link = join(dir, 'node_modules/@ipdata/lookup-engine');
  if (existsSync(engine) && !existsSync(link)) {
    cpSync(join(repoRoot, 'services/lookup-engine/package.json'), join(engine, 'package.json'));
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync('../../services/lookup-engine', link);
  }
  return dir;
}

/** `--<name> <text>` from the command line, or undefined. */
export function textOption(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** `--<name> "<flags>"` split into node flags (`""`: none, an A/A run), or undefined when absent. */
export function nodeFlagsOption(name: string): string[] | undefined {
  return textOption(name)
    ?.split(' ')
    .filter((flag) => flag !== '');
}

export function emit(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * Runs a benchmark script in its own process (so client and server use both cores) until it
 * prints a line matching `line`; returns the process and the line's numbers (its capture
 * groups). Compiled output is used when present, else the TypeScript source.
 */
export async function startScript(
  script: string,
  env: Record<string, string>,
  line: RegExp,
): Promise<{ child: ChildProcess; values: number[] }> {
  const args = script.endsWith('.js') && existsSync(script) ? [script] : ['--conditions=source', '--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const values = await new Promise<number[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} printed no ${line} in 60 s`)), 60_000);
    lines.on('line', (text) => {
      const match = line.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match.slice(1).map(Number));
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, values };
}

/** Untimed calls each batch client makes first (JIT warm-up, the engine's lazily built parts). */
export const BATCH_WARM_UP_CALLS = 50;

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 10 ms resolution). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Deletes a benchmark's scratch topic; a failure only leaves the topic behind (its retention is short). */
export async function deleteScratchTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}

/** Starts a server script and waits for its "READY <port>" line. */
export async function startServer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const { child, values } = await startScript(script, env, /^READY (\d+)$/);
  return { child, port: values[0] as number };
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** LookupService as a plain @grpc/proto-loader user would load it (the naive baseline). */
export function protoLoaderLookupService(): ServiceClientConstructor {
  const definition = loadSync(join(repoRoot, 'proto/ipdata/lookup/v1/lookup.proto'), {
    includeDirs: [join(repoRoot, 'proto')],
    longs: Number,
    enums: Number,
    defaults: false,
    oneofs: true,
  });
  const ipdata = loadPackageDefinition(definition)['ipdata'] as GrpcObject;
  return ((ipdata['lookup'] as GrpcObject)['v1'] as GrpcObject)['LookupService'] as ServiceClientConstructor;
}
