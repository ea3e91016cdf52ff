/**
 * Starting and stopping the one shared system of a test run: DNS stub, SMS and mail sinks, lookup engine
 * (the real dataset), auth, billing (test plan catalogue), stats, downloads (the real dataset's files), content,
 * probe, bff-en (serving face B's built app) and bff-cn (serving face A's), each a detached process from
 * source on the test ports of system-layout.ts, with mutual TLS from the test PKI, logs in
 * $TEST_SYSTEM_DIR/logs/<service>.log. Started by the first system test file (useTestSystem in
 * index.ts), reused by the later ones, stopped by the stack's global teardown (stopTestSystem).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startGroupsAtLogEnd } from './consumer-groups.js';
import { ServiceProcess, isReady, type Readiness } from './service-process.js';
import {
  SMS_GATEWAY_SECRET,
  SYSTEM_CONSUMER_GROUPS,
  faceAOrigin,
  faceBOrigin,
  smsDir,
  repoRoot,
  serviceEnv,
  stackEnvFromProcess,
  systemDir,
  systemPorts,
  type SystemPorts,
  type SystemService,
} from './system-layout.js';
import {
  pidFile,
  processAlive,
  readFailure,
  readOwner,
  readState,
  runDir,
  stopSystemProcesses,
  withSystemLock,
  writeFailure,
  writeOwner,
  writeState,
  type SystemAddresses,
  type SystemState,
} from './system-run.js';

/** Set by the global setup: the vitest process a started system belongs to (its teardown stops it). */
export const OWNER_ENV = 'TEST_SYSTEM_OWNER_PID';

type Process = SystemService | 'dns-stub' | 'sms-sink';

const ENTRIES: Record<Process, string> = {
  'dns-stub': 'scripts/test/system/dns-stub-server.ts',
  'sms-sink': 'scripts/dev/sms-sink.ts',
  'mail-sink': 'scripts/dev/mail-sink.ts',
  'lookup-engine': 'services/lookup-engine/src/main.ts',
  auth: 'services/auth/src/main.ts',
  billing: 'services/billing/src/main.ts',
  stats: 'services/stats/src/main.ts',
  downloads: 'services/downloads/src/main.ts',
  content: 'services/content/src/main.ts',
  probe: 'services/probe/src/main.ts',
  'bff-en': 'services/bff-en/src/main.ts',
  'bff-cn': 'services/bff-cn/src/main.ts',
};

function readiness(service: Process, ports: SystemPorts): Readiness {
  switch (service) {
    case 'dns-stub':
      return { dns: ports.dns };
    case 'sms-sink':
      return { tcp: ports.smsGateway };
    case 'mail-sink':
      return { tcp: ports.mailSmtp };
    case 'lookup-engine':
      return { http: ports.lookupHttp };
    case 'auth':
      return { http: ports.authHttp };
    case 'billing':
      return { http: ports.billingHttp };
    case 'stats':
      return { http: ports.statsHttp };
    case 'downloads':
      return { http: ports.downloadsHttp };
    case 'content':
      return { http: ports.contentHttp };
    case 'probe':
      return { http: ports.probeHttp };
    case 'bff-en':
      return { http: ports.bffEnHttp };
    case 'bff-cn':
      return { http: ports.bffCnHttp };
  }
}

/** The environment of the system's own helpers (not services of the platform). */
function helperEnv(process: Process, ports: SystemPorts): Record<string, string> | undefined {
  if (process === 'dns-stub') return { DNS_STUB_PORT: String(ports.dns) };
  if (process === 'sms-sink') {
    return { SMS_SINK_PORT: String(ports.smsGateway), SMS_SINK_DIR: smsDir(), SMS_GATEWAY_SECRET };
  }
  return undefined;
}

/**
 * The running system of this run, started if no earlier file did (under a lock: one start per
 * run). A system that was started but has a process gone or not ready fails here with that
 * process's log, as does every file after a start that failed. TEST_SYSTEM=backends leaves bff-en out.
 */
export async function ensureTestSystem(): Promise<SystemAddresses> {
  if (process.env['TEST_SYSTEM'] === 'off') {
    throw new Error('this test needs the test system, and TEST_SYSTEM=off is set');
  }
  const owner = Number(process.env[OWNER_ENV]);
  if (!Number.isInteger(owner) || owner <= 0) {
    throw new Error(`${OWNER_ENV} not set: the test system is started by tests run through vitest (the stack's global setup)`);
  }
  const dir = systemDir();
  return withSystemLock(dir, async () => {
    const previous = readOwner(dir);
    if (previous !== undefined && previous !== owner) {
      if (processAlive(previous)) {
        throw new Error(
          `${dir} belongs to another test run (vitest pid ${previous}): give this run its own TEST_SYSTEM_DIR and TEST_SYSTEM_PORT_BASE`,
        );
      }
      await clearLeftovers(dir);
    }
    const failure = readFailure(dir);
    if (failure !== undefined) throw new Error(`the test system failed to start earlier in this run:\n${failure}`);
    const state = readState(dir);
    if (state) {
      await checkRunning(state);
      return state.addresses;
    }
    return start(dir, owner);
  });
}

async function checkRunning(state: SystemState): Promise<void> {
  for (const service of state.services) {
    const alive = processAlive(service.pid);
    if (alive && (await isReady(service.ready))) continue;
    throw new Error(
      `the test system's ${service.name} (pid ${service.pid}) is ${alive ? 'not ready any more' : 'gone'}: see ${service.logFile}`,
    );
  }
}

async function start(dir: string, owner: number): Promise<SystemAddresses> {
  const started = Date.now();
  const stack = stackEnvFromProcess();
  const ports = systemPorts();
  const datasets = join(repoRoot, 'var/datasets/current');
  if (!process.env['TEST_DATASETS_DIR'] && !existsSync(datasets)) {
    throw new Error(`test system: no dataset at ${datasets}: run \`make dataset\` first`);
  }
  // Mail and bff-en data of an earlier run would confuse this one (old links, old bulk files);
  // run/ holds the lock.
  for (const entry of readdirSync(dir)) {
    if (entry !== 'run') rmSync(join(dir, entry), { recursive: true, force: true });
  }
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeOwner(dir, owner);

  const running: SystemState['services'] = [];
  const launch = async (service: Process) => {
    const logFile = join(dir, 'logs', `${service}.log`);
    const ready = readiness(service, ports);
    const launched = await ServiceProcess.start({
      name: service,
      entry: ENTRIES[service],
      env: helperEnv(service, ports) ?? serviceEnv(service as SystemService, stack, ports),
      logFile,
      ready,
      detached: { pidFile: pidFile(dir, service) },
    });
    running.push({ name: service, pid: launched.pid, entry: ENTRIES[service], ready, logFile });
  };
  // allSettled: on a failure nothing may still be spawning while the others are stopped.
  const launchAll = async (services: Process[]) => {
    const launched = await Promise.allSettled(services.map(launch));
    const failed = launched.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    await startGroupsAtLogEnd(stack.KAFKA_BROKERS, SYSTEM_CONSUMER_GROUPS);
    // Back ends do not wait for each other (events are asynchronous): start them together.
    await launchAll([
      'dns-stub',
      'sms-sink',
      'mail-sink',
      'lookup-engine',
      'auth',
      'billing',
      'stats',
      'downloads',
      'content',
      'probe',
    ]);
    // TEST_SYSTEM=backends leaves the BFFs out on purpose (while one of them is being changed).
    const withBffs = process.env['TEST_SYSTEM'] !== 'backends';
    if (withBffs) await launchAll(['bff-en', 'bff-cn']);
    const addresses = addressesOf(ports, dir, withBffs);
    writeState(dir, { ownerPid: owner, startedAt: new Date(started).toISOString(), addresses, services: running });
    console.log(
      `test system: ${running.map((service) => `${service.name} (pid ${service.pid})`).join(', ')}` +
        `${withBffs ? '' : ' — without the BFFs'}; up in ${((Date.now() - started) / 1000).toFixed(1)} s, logs in ${join(dir, 'logs')}`,
    );
    return addresses;
  } catch (error) {
    writeFailure(dir, error instanceof Error ? error.message : String(error));
    await stopSystemProcesses(dir);
    throw error;
  }
}

function addressesOf(ports: SystemPorts, dir: string, bffs: boolean): SystemAddresses {
  return {
    bffEnUrl: bffs ? faceBOrigin(ports) : undefined,
    bffCnUrl: bffs ? faceAOrigin(ports) : undefined,
    lookupGrpc: `127.0.0.1:${ports.lookupGrpc}`,
    authGrpc: `127.0.0.1:${ports.authGrpc}`,
    billingGrpc: `127.0.0.1:${ports.billingGrpc}`,
    statsGrpc: `127.0.0.1:${ports.statsGrpc}`,
    downloadsGrpc: `127.0.0.1:${ports.downloadsGrpc}`,
    contentGrpc: `127.0.0.1:${ports.contentGrpc}`,
    downloadsUrl: `http://127.0.0.1:${ports.downloadsHttp}`,
    mailDir: join(dir, 'mail'),
    dnsServer: `127.0.0.1:${ports.dns}`,
  };
}

/** Processes of a run whose vitest process is gone (killed, say): stopped, their files removed. */
async function clearLeftovers(dir: string): Promise<void> {
  const stopped = await stopSystemProcesses(dir);
  if (stopped.length > 0) console.log(`test system: stopped leftovers of an earlier run: ${stopped.join(', ')}`);
  rmSync(join(runDir(dir), 'failed'), { force: true });
  rmSync(join(runDir(dir), 'owner'), { force: true });
}

/**
 * For the global setup (the vitest process): marks this process as the owner of a system started
 * during the run and clears what a killed earlier run left in $TEST_SYSTEM_DIR (a directory a
 * live run owns is left alone: starting the system would then fail with that message). Returns
 * the teardown: stops the system if this run started one, else does nothing.
 */
export async function prepareTestSystem(): Promise<() => Promise<void>> {
  const dir = systemDir();
  // The test workers must agree on the directory (and ports) even if the default changes.
  process.env['TEST_SYSTEM_DIR'] = dir;
  process.env[OWNER_ENV] = String(process.pid);
  const previous = readOwner(dir);
  if (previous !== undefined && previous !== process.pid && !processAlive(previous)) await clearLeftovers(dir);
  return () => stopTestSystem(dir);
}

async function stopTestSystem(dir: string): Promise<void> {
  if (readOwner(dir) !== process.pid) return;
  const stopped = await stopSystemProcesses(dir);
  rmSync(join(runDir(dir), 'failed'), { force: true });
  rmSync(join(runDir(dir), 'owner'), { force: true });
  if (stopped.length > 0) console.log(`test system: stopped ${stopped.join(', ')}`);
}
