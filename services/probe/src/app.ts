import type { Logger } from 'pino';
import {
  EventProducer,
  HttpServer,
  Lifecycle,
  PeriodicTask,
  TOPICS,
  createKafka,
  ensureTopics,
  moduleLogger,
  startupStep,
  systemClock,
  topicSpecs,
  type Clock,
  type Component,
} from '@ipdata/common';
import { ProbeResultPublisher } from './adapters/kafka/probe-result.publisher.js';
import { probeTaskConsumer } from './adapters/kafka/probe-task.consumer.js';
import { TracerouteProcess } from './adapters/process/traceroute.process.js';
import type { ProbeConfig } from './config.js';
import { TaskIntake } from './tasks/task-intake.js';
import { TaskPool } from './tasks/task-pool.js';

export interface ProbeService {
  lifecycle: Lifecycle;
  /** Bound ports (configure 0 to get a free one in tests). */
  ports(): { health: number };
  /** Tasks running now. */
  running(): number;
}

/**
 * The wiring: Kafka topics and producer → the traceroute runner (readiness: the binary is there)
 * → the task pool and intake behind the probe.task.v1 consumer → heartbeats → health. Shutdown
 * runs in reverse: health, heartbeats, then the pool (running traces killed, each ends FAILED
 * "探针停止" while the producer still runs), then the consumer (a record it had not accepted stays
 * uncommitted), then the producer.
 */
export function buildProbeService(config: ProbeConfig, deps: { logger: Logger; clock?: Clock }): ProbeService {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  lifecycle.register(
    startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs([TOPICS.probeTask, TOPICS.probeResult]), logger)),
  );
  const producer = lifecycle.register(EventProducer.fromConfig({ kafka, source: 'probe' }, moduleLogger(logger, 'producer')));
  const publisher = new ProbeResultPublisher(producer, {
    workerId: config.WORKER_ID,
    site: config.PROBE_SITE,
    siteName: config.PROBE_SITE_NAME,
  });

  const tracer = new TracerouteProcess(config.TRACEROUTE_BIN, moduleLogger(logger, 'traceroute'));
  lifecycle.register(binaryCheck(tracer, config.TRACEROUTE_BIN, logger));

  const pool = new TaskPool(config.MAX_CONCURRENT_TASKS);
  const intake = new TaskIntake(
    {
      site: config.PROBE_SITE,
      allowPrivate: config.PROBE_ALLOW_PRIVATE,
      defaultMaxHops: config.PROBE_DEFAULT_MAX_HOPS,
      maxHops: config.PROBE_MAX_HOPS,
      queriesPerHop: config.PROBE_QUERIES_PER_HOP,
      waitMs: config.PROBE_WAIT_MS,
      defaultTtlMs: config.TASK_DEFAULT_TTL_SECONDS * 1000,
    },
    { pool, sink: publisher, tracer, timeoutMs: config.TASK_TIMEOUT_MS, clock, logger: moduleLogger(logger, 'tasks') },
  );
  lifecycle.register(
    probeTaskConsumer(
      {
        kafka,
        groupId: config.KAFKA_GROUP_ID,
        dlqProducer: producer,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        fromBeginning: config.TASKS_NEW_GROUP_START === 'earliest',
        intake,
      },
      moduleLogger(logger, 'task-consumer'),
    ),
  );
  // After the consumer, so it stops before it: running traces end before the consumer leaves.
  lifecycle.register({ name: 'probe-tasks', start: async () => undefined, shutdown: () => pool.close() });

  const startedAt = clock.now();
  const heartbeats = PeriodicTask.fromConfig(
    {
      name: 'heartbeats',
      intervalMs: config.HEARTBEAT_INTERVAL_SECONDS * 1000,
      run: () =>
        publisher.heartbeat({
          running: pool.size,
          capacity: pool.capacity,
          startedAt,
          intervalSeconds: config.HEARTBEAT_INTERVAL_SECONDS,
        }),
    },
    moduleLogger(logger, 'heartbeats'),
  );
  lifecycle.register(heartbeats);
  // The first heartbeat at start, not one interval later: the site is listed as soon as it runs.
  lifecycle.register(startupStep('first-heartbeat', () => heartbeats.runNow()));

  const health = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'health-server', host: config.HEALTH_HOST, port: config.HEALTH_PORT, metrics: true },
      lifecycle,
      moduleLogger(logger, 'health'),
    ),
  );
  return { lifecycle, ports: () => ({ health: health.boundPort }), running: () => pool.size };
}

/** Readiness includes the traceroute binary: a worker without it would fail every task. */
function binaryCheck(tracer: TracerouteProcess, binary: string, logger: Logger): Component {
  return {
    name: 'traceroute-binary',
    start: async () => {
      if (!(await tracer.isAvailable())) {
        logger.error({ binary }, 'traceroute is missing (scripts/test/install-probe-tools.sh installs it): not ready');
      }
    },
    shutdown: async () => undefined,
    isReady: () => tracer.isAvailable(),
  };
}
