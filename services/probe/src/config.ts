import { hostname } from 'node:os';
import { ConfigError, env, kafkaEnv, loadConfig, serviceEnv, type ConfigOf } from '@ipdata/common';

/** Every variable probe reads (README.md lists them with their meaning). */
export const probeEnv = {
  ...serviceEnv,
  HEALTH_PORT: env.port(9107),
  ...kafkaEnv,
  KAFKA_CLIENT_ID: env.string({ default: 'probe', expected: 'a Kafka client id' }),
  // Consumer group of probe.task.v1; default `probe.<PROBE_SITE>` (the workers of a site share the tasks).
  KAFKA_GROUP_ID: env.string({ default: '-', expected: 'a Kafka consumer group id ("-" = probe.<PROBE_SITE>)' }),
  KAFKA_SESSION_TIMEOUT_MS: env.int({ min: 6_000, max: 300_000, default: 30_000 }),
  // Where a new consumer group starts: only tasks published from now on (a new site does not run a
  // day of stale tasks), or the whole retained topic (tests with a group of their own).
  TASKS_NEW_GROUP_START: env.oneOf(['earliest', 'latest'], 'latest'),
  // The site this worker measures from: tasks name it in `site` (empty = every site).
  PROBE_SITE: env.string({ default: 'local', expected: 'a site id: letters, digits, "-", "_" or "." (at most 64)' }),
  PROBE_SITE_NAME: env.string({ default: '本地探针', expected: 'the site name shown to visitors' }),
  // Identifies this worker in results and heartbeats; default <hostname>-<pid>.
  WORKER_ID: env.string({ default: '-', expected: 'a worker id ("-" = <hostname>-<pid>)' }),
  MAX_CONCURRENT_TASKS: env.int({ min: 1, max: 64, default: 4 }),
  // A trace running longer is killed and ends FAILED "探测超时".
  TASK_TIMEOUT_MS: env.int({ min: 1_000, max: 600_000, default: 90_000 }),
  // A task without expires_at expires this long after it was published.
  TASK_DEFAULT_TTL_SECONDS: env.int({ min: 10, max: 86_400, default: 600 }),
  HEARTBEAT_INTERVAL_SECONDS: env.int({ min: 1, max: 3_600, default: 10 }),
  // Private, loopback and other special-purpose targets are refused unless this is true (tests, a lab).
  PROBE_ALLOW_PRIVATE: env.flag(false),
  // Debian's traceroute (scripts/test/install-probe-tools.sh); an absolute path, run without a shell.
  TRACEROUTE_BIN: env.string({ default: '/usr/bin/traceroute', expected: 'an absolute path to the traceroute binary' }),
  // max_hops of a task that gives none, and the most a task may ask for (traceroute -m).
  PROBE_DEFAULT_MAX_HOPS: env.int({ min: 1, max: 64, default: 30 }),
  PROBE_MAX_HOPS: env.int({ min: 1, max: 64, default: 64 }),
  // Probes per hop (traceroute -q) and how long each waits for its answer (traceroute -w).
  PROBE_QUERIES_PER_HOP: env.int({ min: 1, max: 10, default: 3 }),
  PROBE_WAIT_MS: env.int({ min: 100, max: 10_000, default: 3_000 }),
};

export type ProbeConfig = ConfigOf<typeof probeEnv>;

const SITE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const WORKER_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function loadProbeConfig(source: NodeJS.ProcessEnv = process.env): ProbeConfig {
  const config = loadConfig(probeEnv, source);
  const problems: string[] = [];
  if (!SITE_ID.test(config.PROBE_SITE)) problems.push(`PROBE_SITE: expected ${probeEnv.PROBE_SITE.expected}`);
  if (!config.TRACEROUTE_BIN.startsWith('/')) problems.push(`TRACEROUTE_BIN: expected ${probeEnv.TRACEROUTE_BIN.expected}`);
  const workerId = config.WORKER_ID === '-' ? `${hostname()}-${process.pid}` : config.WORKER_ID;
  if (!WORKER_ID.test(workerId)) problems.push('WORKER_ID: expected letters, digits, ".", "_", ":" or "-" (at most 128)');
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    ...config,
    KAFKA_GROUP_ID: config.KAFKA_GROUP_ID === '-' ? `probe.${config.PROBE_SITE}` : config.KAFKA_GROUP_ID,
    WORKER_ID: workerId,
  });
}
