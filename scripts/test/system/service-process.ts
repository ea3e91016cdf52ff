/**
 * One service of the test system as a child process run from source
 * (`node --conditions=source --import tsx <entry>`), or as built (`node <its dist/main.js>`, as
 * `make up` runs it), its output in a log file, waited for until
 * it is ready, stopped with SIGTERM and, if it does not exit in time, SIGKILL. A `detached`
 * process outlives the test worker that started it (the shared system, used by later files): its
 * pid goes to a file at spawn, and whoever owns the run stops it from there (system-processes.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dnsStubAnswers } from './dns-stub.js';
import { repoRoot } from './system-layout.js';

export interface ServiceProcessOptions {
  name: string;
  /** Path of the entry file, relative to the repository root. */
  entry: string;
  env: Record<string, string>;
  logFile: string;
  /**
   * Ready when GET http://127.0.0.1:<port>/readyz answers 200, (tcp) when the port accepts, or
   * (dns) when a UDP query there gets an answer.
   */
  ready: Readiness;
  readyTimeoutMs?: number;
  /** Flags for node itself, before the entry (V8 flags NODE_OPTIONS refuses, such as `--single-threaded-gc`). */
  nodeFlags?: readonly string[];
  /**
   * Run the service's build (services/<name>/dist/main.js for an entry services/<name>/src/main.ts)
   * instead of its source through tsx: what benchmarks measure, since tsx's output differs
   * (it keeps function names with a helper call per closure made).
   */
  built?: boolean;
  /**
   * With `built`: the folder holding the build instead of the repository (a copy kept by
   * `bench-render --save-build`, laid out as the repository: services/<name>/dist/...). Its
   * packages resolve from the repository's node_modules.
   */
  buildRoot?: string;
  /**
   * Run in its own process group, not tied to this process's life: the pid (and the entry, so a
   * recycled pid is never taken for it) is written to `pidFile` as soon as it is spawned.
   */
  detached?: { pidFile: string };
}

export type Readiness = { http: number } | { tcp: number } | { dns: number };

/** What a pid file of a detached service holds. */
export interface PidRecord {
  name: string;
  pid: number;
  entry: string;
}

export class ServiceProcess {
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exit: Promise<void>;

  private constructor(
    readonly options: ServiceProcessOptions,
    readonly child: ChildProcess,
  ) {
    this.exit = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exited = { code, signal };
        resolve();
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exited === undefined;
  }

  /** Starts the process and waits until it is ready; a process that exits or never gets ready fails with its log's tail. */
  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    const port = readinessPort(options.ready);
    if ('dns' in options.ready ? await dnsStubAnswers(port) : await portAccepts(port)) {
      throw new Error(`${options.name}: port 127.0.0.1:${port} is already in use (another test run? set TEST_SYSTEM_PORT_BASE)`);
    }
    mkdirSync(dirname(options.logFile), { recursive: true });
    const entry = options.built ? builtEntry(options.entry, options.buildRoot ?? repoRoot) : options.entry;
    const log = openSync(options.logFile, 'w');
    const child = spawn(
      process.execPath,
      [...(options.nodeFlags ?? []), ...(options.built ? [] : ['--conditions=source', '--import', 'tsx']), entry],
      {
        cwd: repoRoot,
        // Only what a service needs: the parent's variables (vitest's own, the stack's) stay out.
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', ...options.env },
        stdio: ['ignore', log, log],
        detached: options.detached !== undefined,
      },
    );
    closeSync(log);
    const service = new ServiceProcess(options, child);
    if (options.detached) {
      if (child.pid === undefined) throw new Error(`${options.name}: could not be started`);
      const record: PidRecord = { name: options.name, pid: child.pid, entry };
      mkdirSync(dirname(options.detached.pidFile), { recursive: true });
      writeFileSync(options.detached.pidFile, JSON.stringify(record));
      // The worker that started it may exit; the run's teardown stops it through the pid file.
      child.unref();
    } else {
      // A test worker or the runner that dies must not leave services behind.
      const killOnExit = () => service.child.kill('SIGKILL');
      process.once('exit', killOnExit);
      child.once('exit', () => process.removeListener('exit', killOnExit));
    }
    await service.waitUntilReady();
    return service;
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(
          `${this.options.name} exited (${this.exited?.code ?? this.exited?.signal}) before it was ready; ${this.logTail()}`,
        );
      }
      if (await this.isReady()) return;
      await sleep(100);
    }
    await this.stop();
    throw new Error(`${this.options.name} not ready after ${this.options.readyTimeoutMs ?? 60_000} ms; ${this.logTail()}`);
  }

  async isReady(): Promise<boolean> {
    return isReady(this.options.ready);
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM (graceful shutdown), then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }

  /** Resolves when the process has exited (after kill('SIGKILL') for example). */
  async whenExited(): Promise<void> {
    await this.exit;
  }

  logTail(lines = 15): string {
    try {
      const text = readFileSync(this.options.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      return `last lines of ${this.options.logFile}:\n${text}`;
    } catch {
      return `no log at ${this.options.logFile}`;
    }
  }
}

function readinessPort(ready: Readiness): number {
  return 'http' in ready ? ready.http : 'tcp' in ready ? ready.tcp : ready.dns;
}

/** One readiness check (no waiting): also used to check a running system before it is reused. */
export async function isReady(ready: Readiness): Promise<boolean> {
  if ('tcp' in ready) return portAccepts(ready.tcp);
  if ('dns' in ready) return dnsStubAnswers(ready.dns);
  try {
    const answer = await fetch(`http://127.0.0.1:${ready.http}/readyz`, { signal: AbortSignal.timeout(2_000) });
    await answer.arrayBuffer();
    return answer.status === 200;
  } catch {
    return false;
  }
}

export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** services/<name>/dist/main.js under `root` for services/<name>/src/main.ts; refused when it is not built. */
function builtEntry(entry: string, root: string): string {
  const match = /^services\/([^/]+)\/src\/main\.ts$/.exec(entry);
  if (match === null) throw new Error(`${entry}: only a service's src/main.ts has a build`);
  const built = join(root, `services/${match[1] ?? ''}/dist/main.js`);
  if (!existsSync(built)) throw new Error(`${built} is missing: run make build`);
  return built;
}
