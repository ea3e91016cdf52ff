/**
 * The services the public API benchmark measures: the shared test system's launcher and layout
 * (scripts/test/system: mail sink, lookup-engine, auth, billing, bff-en as processes, mutual TLS
 * from a PKI made by infra/local/pki.sh) on the benchmark's own port base, folder and
 * plan catalogue, against a running stack (`make stack-up`). bff-en instances are started one by
 * one (accounting on, accounting off, a fresh one for bulk), each on its own port and data dir.
 * The services run as built (dist/main.js, as `make up` runs them; `make build` first), not from
 * source through tsx as the tests run them (tsx keeps function names with a helper call per
 * closure made: 4.6% of the batch rendering's CPU profile under tsx).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { createKafka } from '@ipdata/common';
import { startGroupsAtLogEnd } from '../test/system/consumer-groups.js';
import { ServiceProcess } from '../test/system/service-process.js';
import {
  SYSTEM_CONSUMER_GROUPS,
  bffEnEnv,
  serviceEnv,
  systemPorts,
  type StackEnv,
  type SystemService,
} from '../test/system/system-layout.js';
import { freePort, repoRoot } from './bench-support.js';
import { warmBroker } from './broker-warm-up.js';

export const BENCH_PLANS_FILE = join(repoRoot, 'scripts/bench/public-api-plans.yaml');
const TELEMETRY_REGISTER = join(repoRoot, 'services/common/dist/telemetry/register.js');

// The public API bench needs no downloads service and nothing of face A.
const ENTRIES: Record<Exclude<SystemService, 'bff-en' | 'downloads' | 'content' | 'probe' | 'bff-cn' | 'stats'>, string> = {
  'mail-sink': 'scripts/dev/mail-sink.ts',
  'lookup-engine': 'services/lookup-engine/src/main.ts',
  auth: 'services/auth/src/main.ts',
  billing: 'services/billing/src/main.ts',
};
const STATS_ENTRY = 'services/stats/src/main.ts';
const STATS_GROUPS = SYSTEM_CONSUMER_GROUPS.filter((group) => group.startsWith('stats-'));

/** The stack of KAFKA_BROKERS / MONGO_URL / REDIS_URL, else of stack.sh's ports (KAFKA_PORT, ...). */
export function benchStack(pkiDir: string, env: NodeJS.ProcessEnv = process.env): StackEnv {
  return {
    KAFKA_BROKERS: env['KAFKA_BROKERS'] ?? `127.0.0.1:${env['KAFKA_PORT'] ?? 9092}`,
    MONGO_URL: env['MONGO_URL'] ?? `mongodb://127.0.0.1:${env['MONGO_PORT'] ?? 27017}/ipdata_bench`,
    REDIS_URL: env['REDIS_URL'] ?? `redis://127.0.0.1:${env['REDIS_PORT'] ?? 6379}`,
    TEST_PKI_DIR: pkiDir,
  };
}

/** BENCH_BFF_EN_ENV="NAME=value,NAME=value": variables for every bff-en (to try a setting without editing code). */
function extraBffEnEnv(): Record<string, string> {
  return envList(process.env['BENCH_BFF_EN_ENV'] ?? '');
}

/** "NAME=value,NAME=value" as variables. */
export function envList(list: string): Record<string, string> {
  return Object.fromEntries(
    list
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1)]),
  );
}

export class BenchPlatform {
  private readonly running: ServiceProcess[] = [];
  readonly ports: ReturnType<typeof systemPorts>;

  private constructor(
    readonly dir: string,
    readonly stack: StackEnv,
    portBase: number,
  ) {
    this.ports = systemPorts(portBase);
  }

  /**
   * Starts the back ends (bff-en comes with startBffEn). The system layout reads its folder from
   * TEST_SYSTEM_DIR and the test helpers (createTestAccount) their addresses from TEST_*: both are
   * set here to the benchmark's own, so nothing of a test run is touched.
   */
  static async start(dir: string, portBase: number, profileEngine = false): Promise<BenchPlatform> {
    const pkiDir = join(process.env['IPDATA_STACK_DIR'] ?? join(repoRoot, 'var/stack'), 'pki');
    await promisify(execFile)('bash', [join(repoRoot, 'infra/local/pki.sh'), pkiDir], { cwd: repoRoot });
    if (!existsSync(join(repoRoot, 'var/datasets/current'))) throw new Error('no dataset: run make dataset');
    process.env['TEST_SYSTEM_DIR'] = dir;
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const platform = new BenchPlatform(dir, benchStack(pkiDir), portBase);
    const { ports, stack } = platform;
    Object.assign(process.env, {
      TEST_PKI_DIR: pkiDir,
      TEST_SYSTEM_PORT_BASE: String(portBase),
      TEST_LOOKUP_GRPC: `127.0.0.1:${ports.lookupGrpc}`,
      TEST_AUTH_GRPC: `127.0.0.1:${ports.authGrpc}`,
      TEST_BILLING_GRPC: `127.0.0.1:${ports.billingGrpc}`,
      TEST_STATS_GRPC: `127.0.0.1:${ports.statsGrpc}`,
      TEST_MAIL_DIR: join(dir, 'mail'),
      KAFKA_BROKERS: stack.KAFKA_BROKERS,
      MONGO_URL: stack.MONGO_URL,
      REDIS_URL: stack.REDIS_URL,
    });
    const ready = {
      'mail-sink': { tcp: ports.mailSmtp },
      'lookup-engine': { http: ports.lookupHttp },
      auth: { http: ports.authHttp },
      billing: { http: ports.billingHttp },
    };
    try {
      await Promise.all(
        (Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>).map(async (name) => {
          const env = serviceEnv(name, stack, ports);
          if (name === 'billing') env['PLAN_CATALOGUE_FILE'] = BENCH_PLANS_FILE;
          // The benchmark measures bff-en: its dependencies log warnings only.
          if (name !== 'mail-sink') env['LOG_LEVEL'] = 'warn';
          if (name === 'lookup-engine' && profileEngine) {
            // --cpu-profile profiles the engine under the same load (public-api-cpu-profile.mjs).
            env['NODE_OPTIONS'] = `--import ${join(repoRoot, 'scripts/bench/public-api-cpu-profile.mjs')}`;
            env['BENCH_CPU_PROFILE_FILE'] = platform.engineProfileFile;
          }
          platform.running.push(
            await ServiceProcess.start({
              name,
              entry: ENTRIES[name],
              built: name !== 'mail-sink',
              env,
              logFile: join(dir, 'logs', `${name}.log`),
              ready: ready[name],
            }),
          );
        }),
      );
      // Before any bff-en produces: otherwise the first variant measured pays the broker's JIT (broker-warm-up.ts).
      const kafka = platform.kafka();
      const warmed = await warmBroker(kafka, pino({ level: 'warn' }));
      process.stderr.write(
        `bench: broker warmed up (${warmed.sends} produce requests in ${warmed.seconds} s; its CPU per request ` +
          `${warmed.firstRoundUsPerSend ?? '?'} µs in the first round, ${warmed.lastRoundUsPerSend ?? '?'} µs in the last)\n`,
      );
    } catch (error) {
      await platform.stop();
      throw error;
    }
    return platform;
  }

  /**
   * One bff-en on a free port; `instance` names its data dir, consumer group and log. Extra node
   * flags (--cpu-prof) go in NODE_OPTIONS. Its log level is BENCH_LOG_LEVEL, default info as in
   * production: what it logs per request is part of its cost.
   */
  async startBffEn(
    instance: string,
    env: Record<string, string> = {},
    nodeFlags: readonly string[] = [],
    /** A saved build's folder (bench-render --save-build) to run instead of today's. */
    buildRoot?: string,
  ): Promise<ServiceProcess & { origin: string }> {
    const port = await freePort();
    // BENCH_TELEMETRY=1: OpenTelemetry loaded first, as infra/local/services.sh runs services (the
    // built register: NODE_OPTIONS imports run before the launcher's tsx, so no TypeScript here).
    const telemetry = process.env['BENCH_TELEMETRY'] === '1' ? `--import ${TELEMETRY_REGISTER}` : '';
    const nodeOptions = [telemetry, env['NODE_OPTIONS'] ?? ''].filter((part) => part !== '').join(' ');
    const service = await ServiceProcess.start({
      name: instance,
      entry: 'services/bff-en/src/main.ts',
      built: true,
      ...(buildRoot === undefined ? {} : { buildRoot }),
      env: {
        ...bffEnEnv(this.stack, this.ports, { port, instance }),
        LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info',
        // bff-en's own default (config.ts), not the test system's 1 MiB: the 1,000,000-line job is ~14 MB.
        BULK_MAX_BYTES: String(64 * 1024 * 1024),
        ...extraBffEnEnv(),
        ...env,
        ...(nodeOptions === '' ? {} : { NODE_OPTIONS: nodeOptions }),
      },
      logFile: join(this.dir, 'logs', `${instance}.log`),
      ready: { http: port },
      nodeFlags,
    });
    this.running.push(service);
    return Object.assign(service, { origin: `http://127.0.0.1:${port}` });
  }

  /**
   * stats, started apart from the other back ends: in production it runs on machines of its own,
   * and here its consumption of the ledger (stats plus FerretDB behind it) takes about half a core
   * of the two that bff-en, the lookup engine and wrk share, so the benchmark measures bff-en
   * without it and then once more with it (its lag under the load). Its groups start at the
   * ledger's end: the events of the rounds before are the benchmark's, not worth counting.
   */
  async startStats(): Promise<ServiceProcess> {
    await startGroupsAtLogEnd(this.stack.KAFKA_BROKERS, STATS_GROUPS);
    const env = { ...serviceEnv('stats', this.stack, this.ports), LOG_LEVEL: 'warn' };
    const stats = await ServiceProcess.start({
      name: 'stats',
      entry: STATS_ENTRY,
      built: true,
      env,
      logFile: join(this.dir, 'logs', 'stats.log'),
      ready: { http: this.ports.statsHttp },
    });
    this.running.push(stats);
    return stats;
  }

  /** stats' consumer group on the ledger (the system layout's), for its lag under load. */
  get statsGroupId(): string {
    return serviceEnv('stats', this.stack, this.ports)['KAFKA_GROUP_ID'] ?? 'stats';
  }

  /** A Kafka client on the benchmark's stack (the caller's admin calls only). */
  kafka(): Kafka {
    return createKafka({ brokers: this.stack.KAFKA_BROKERS.split(','), clientId: 'public-api-bench' }, pino({ level: 'silent' }));
  }

  /** Where the engine writes its CPU profile when started with `profileEngine`. */
  get engineProfileFile(): string {
    return join(this.dir, 'lookup-engine.cpuprofile');
  }

  /** Sends a signal to a back end started by start() (SIGUSR2 starts and stops a profile). */
  signal(name: string, signal: NodeJS.Signals): void {
    for (const service of this.running) if (service.options.name === name) service.kill(signal);
  }

  /** bff-en instances first (they call the others), then the back ends. */
  async stop(): Promise<void> {
    const bff = this.running.filter((service) => service.options.name.startsWith('bff-en'));
    await Promise.all(bff.map((service) => service.stop()));
    await Promise.all(this.running.filter((service) => !bff.includes(service)).map((service) => service.stop()));
  }
}
