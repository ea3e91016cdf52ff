import { pino } from 'pino';
import { EventProducer, TOPICS, createKafka } from '@ipdata/common';
import { ManualClock, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { ProbeKind, ProbeTask } from '@ipdata/proto/events/v1/probe';
import { buildProbeService, type ProbeService } from '../../src/app.js';
import { loadProbeConfig, type ProbeConfig } from '../../src/config.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

/**
 * The probe tests' time: tasks expire by this clock (the workers read it, TaskPublisher stamps
 * expires_at from it), never by how long the broker took to hand a task over.
 */
export function probeTestClock(): ManualClock {
  return new ManualClock(new Date('2026-05-04T03:00:00.000Z'));
}

/** A probe worker in-process on the test stack: a site and a group of its own, health on a free port. */
export class ProbeWorker {
  readonly site = uniqueName('site');
  config!: ProbeConfig;
  service!: ProbeService;
  private stopped = false;

  /** Without a clock the worker reads the real one (other services' tests publish tasks by their own clocks). */
  constructor(readonly clock?: ManualClock) {}

  async start(overrides: Record<string, string> = {}): Promise<this> {
    this.config = loadProbeConfig({
      KAFKA_BROKERS: stackAddresses().kafkaBrokers.join(','),
      HEALTH_PORT: '0',
      HEALTH_HOST: '127.0.0.1',
      PROBE_SITE: this.site,
      KAFKA_GROUP_ID: uniqueName('probe-test'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      TASKS_NEW_GROUP_START: 'earliest',
      WORKER_ID: uniqueName('worker'),
      HEARTBEAT_INTERVAL_SECONDS: '1',
      PROBE_QUERIES_PER_HOP: '2',
      PROBE_WAIT_MS: '500',
      SHUTDOWN_TIMEOUT_MS: '20000',
      ...overrides,
    });
    this.service = buildProbeService(this.config, { logger, ...(this.clock ? { clock: this.clock } : {}) });
    await this.service.lifecycle.start();
    // Ready = producer connected, consumer joined its group, binary present.
    await waitFor(async () => (await this.readyz()).status === 200 || undefined, { timeoutMs: 60_000, what: 'probe /readyz' });
    return this;
  }

  async readyz(): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`http://127.0.0.1:${this.service.ports().health}/readyz`);
    return { status: response.status, body: await response.json() };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.service.lifecycle.shutdown('test done');
  }
}

/** Publishes ProbeTasks the way bff-cn does (TOPICS.probeTask, key = task id), expiring 2 minutes after `clock`'s now. */
export class TaskPublisher {
  constructor(private readonly clock: ManualClock) {}

  private readonly producer = EventProducer.fromConfig(
    { kafka: createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: 'probe-test-tasks' }, logger), source: 'bff-cn' },
    logger,
  );

  async start(): Promise<void> {
    await this.producer.start();
  }

  async publish(fields: Partial<ProbeTask> & { site: string; target: string }): Promise<string> {
    const taskId = fields.taskId ?? uniqueName('task');
    const task = ProbeTask.fromPartial({
      taskId,
      kind: ProbeKind.PROBE_KIND_TRACEROUTE,
      targetInput: fields.target,
      maxHops: 5,
      expiresAt: new Date(this.clock.now().getTime() + 120_000),
      visitorId: 'visitor-test',
      ...fields,
    });
    await this.producer.send(TOPICS.probeTask, task, { key: taskId });
    return taskId;
  }

  async stop(): Promise<void> {
    await this.producer.shutdown();
  }
}
