/**
 * The bookkeeping of a started test system under $TEST_SYSTEM_DIR/run, shared by the test
 * worker that starts it (useTestSystem), the workers of later files that reuse it, and the
 * vitest process whose global teardown stops it:
 *   owner       the pid of the vitest process the system belongs to (written before any spawn);
 *   <name>.pid  one per detached service, written at spawn (PidRecord), so a worker that crashes
 *               half-way through a start still leaves the teardown something to stop;
 *   state.json  the addresses, once every service is ready (SystemState);
 *   failed      why the start failed: later files fail at once instead of trying again;
 *   lock        held while a worker checks, starts or reuses the system.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PidRecord, Readiness } from './service-process.js';

export interface SystemAddresses {
  /** The system's bff-en, e.g. http://127.0.0.1:19082 (undefined while bff-en is not started). */
  bffEnUrl: string | undefined;
  /** The system's bff-cn serving face A's built app (undefined while bff-cn is not started). */
  bffCnUrl: string | undefined;
  /** host:port of the gRPC servers (mutual TLS: testGrpcTls('<caller>') from @ipdata/common/testing). */
  lookupGrpc: string;
  authGrpc: string;
  billingGrpc: string;
  statsGrpc: string;
  downloadsGrpc: string;
  contentGrpc: string;
  /** The downloads file server (signed links and samples point here). */
  downloadsUrl: string;
  /** Where the mail sink stores what auth sends (.eml files). */
  mailDir: string;
  /** The DNS stub bff-en resolves /v1/domain names with (TEST_ZONE; SILENT_NAME never answers). */
  dnsServer: string;
}

export interface SystemState {
  ownerPid: number;
  startedAt: string;
  addresses: SystemAddresses;
  services: (PidRecord & { ready: Readiness; logFile: string })[];
}

export function runDir(dir: string): string {
  return join(dir, 'run');
}

export function pidFile(dir: string, name: string): string {
  return join(runDir(dir), `${name}.pid`);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readState(dir: string): SystemState | undefined {
  return readJson<SystemState>(join(runDir(dir), 'state.json'));
}

export function writeState(dir: string, state: SystemState): void {
  writeFileSync(join(runDir(dir), 'state.json'), JSON.stringify(state, null, 2));
}

export function readOwner(dir: string): number | undefined {
  const owner = Number(readJson<number>(join(runDir(dir), 'owner')));
  return Number.isInteger(owner) && owner > 0 ? owner : undefined;
}

export function writeOwner(dir: string, pid: number): void {
  mkdirSync(runDir(dir), { recursive: true });
  writeFileSync(join(runDir(dir), 'owner'), String(pid));
}

export function readFailure(dir: string): string | undefined {
  return existsSync(join(runDir(dir), 'failed')) ? readFileSync(join(runDir(dir), 'failed'), 'utf8') : undefined;
}

export function writeFailure(dir: string, message: string): void {
  writeFileSync(join(runDir(dir), 'failed'), message);
}

/** Alive and not a zombie (a killed child its parent has not reaped yet counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = readProc(pid, 'stat');
  return stat === undefined || !/^\d+ \(.*\) Z/.test(stat);
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Still the process the record was written for (a pid of an earlier run may belong to another program by now). */
function isRecorded(record: PidRecord): boolean {
  if (!processAlive(record.pid)) return false;
  const cmdline = readProc(record.pid, 'cmdline');
  return cmdline === undefined || cmdline.includes(record.entry);
}

function pidRecords(dir: string): PidRecord[] {
  let files: string[];
  try {
    files = readdirSync(runDir(dir)).filter((file) => file.endsWith('.pid'));
  } catch {
    return [];
  }
  return files.flatMap((file) => readJson<PidRecord>(join(runDir(dir), file)) ?? []);
}

/**
 * Stops every process of the pid files under `dir` (bff-en first: it calls the others), SIGTERM
 * and after `graceMs` SIGKILL, and waits until they are gone; removes the pid files and the
 * state. Returns the names it stopped.
 */
export async function stopSystemProcesses(dir: string, graceMs = 10_000): Promise<string[]> {
  const records = pidRecords(dir).filter(isRecorded);
  const bffEn = records.filter((record) => record.name.startsWith('bff-en'));
  await Promise.all(bffEn.map((record) => stopProcess(record.pid, graceMs)));
  await Promise.all(records.filter((record) => !bffEn.includes(record)).map((record) => stopProcess(record.pid, graceMs)));
  for (const file of ['state.json', ...pidRecords(dir).map((record) => `${record.name}.pid`)]) {
    rmSync(join(runDir(dir), file), { force: true });
  }
  return records.map((record) => `${record.name} (pid ${record.pid})`);
}

async function stopProcess(pid: number, graceMs: number): Promise<void> {
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processAlive(pid) && Date.now() < deadline) await sleep(100);
  if (!processAlive(pid)) return;
  signal(pid, 'SIGKILL');
  const killDeadline = Date.now() + 5_000;
  while (processAlive(pid) && Date.now() < killDeadline) await sleep(50);
}

/** The whole process group (a detached service leads its own), else the process alone. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
  } catch {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Runs `fn` holding $TEST_SYSTEM_DIR/run/lock (an exclusively created file with the holder's
 * pid; a lock of a dead holder is taken over), so two callers never start the system twice.
 */
export async function withSystemLock<T>(dir: string, fn: () => Promise<T>, timeoutMs = 150_000): Promise<T> {
  mkdirSync(runDir(dir), { recursive: true });
  const lock = join(runDir(dir), 'lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readJson<number>(lock);
    if (typeof holder === 'number' && !processAlive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`test system: ${lock} still held by pid ${holder} after ${timeoutMs} ms`);
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
