import type { Logger } from 'pino';
import { errorText, type Clock } from '@ipdata/common';
import { ProbeKind, type ProbeTask } from '@ipdata/proto/events/v1/probe';
import { MAX_HOPS_LIMIT, type TraceLimits } from '../traceroute/traceroute-args.js';
import { checkTarget } from './probe-target.js';
import { FAILURE_TEXT, type ProbeResultSink, type TaskRef } from './task-ports.js';
import type { TaskPool } from './task-pool.js';
import { runTrace, type TraceRunDeps } from './trace-run.js';

export interface TaskIntakeConfig {
  site: string;
  allowPrivate: boolean;
  /** max_hops when the task says 0, and the most a task may ask for (≤ 64). */
  defaultMaxHops: number;
  maxHops: number;
  queriesPerHop: number;
  waitMs: number;
  /** A task without expires_at expires this long after it was published. */
  defaultTtlMs: number;
}

/** What the intake did with a task (logs, tests). */
export type IntakeOutcome = 'started' | 'other-site' | 'duplicate' | 'malformed' | 'expired' | 'refused' | 'unsupported';

/** A consumed ProbeTask with what Kafka told us about it. */
export interface IncomingTask {
  task: ProbeTask;
  /** Event id (ce_id). */
  id: string;
  /** When it was published (ce_time, ISO 8601). */
  time: string;
}

const TASK_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Decides what happens to one ProbeTask: another site's task is skipped silently; a task past its
 * expires_at, with a target that is invalid or refused, or of a kind this worker does not run ends
 * FAILED at once with a short Chinese reason (so a visitor watching it learns why); a task with an
 * unusable id cannot be answered and is skipped with a log line; anything else waits for a free
 * slot and starts (the trace goes on after `accept` returned).
 */
export class TaskIntake {
  constructor(
    private readonly config: TaskIntakeConfig,
    private readonly deps: { pool: TaskPool; sink: ProbeResultSink; clock: Clock; logger: Logger } & Omit<
      TraceRunDeps,
      'sink' | 'logger'
    >,
  ) {}

  async accept(incoming: IncomingTask, keepAlive: () => Promise<void>): Promise<IntakeOutcome> {
    const { task } = incoming;
    const { logger, pool, sink } = this.deps;
    if (task.site !== '' && task.site !== this.config.site) return 'other-site';
    if (!TASK_ID.test(task.taskId)) {
      logger.warn({ eventId: incoming.id }, 'probe task without a usable task id, skipped');
      return 'malformed';
    }
    if (pool.seen(task.taskId)) return 'duplicate';
    const ref: TaskRef = { taskId: task.taskId, eventId: incoming.id };

    if (this.expiresAt(incoming) <= this.deps.clock.now().getTime()) return this.fail(ref, 'expired', FAILURE_TEXT.expired);
    if (task.kind !== ProbeKind.PROBE_KIND_TRACEROUTE && task.kind !== ProbeKind.PROBE_KIND_UNSPECIFIED) {
      return this.fail(ref, 'unsupported', FAILURE_TEXT.unsupportedKind);
    }
    const checked = checkTarget(task.target, this.config.allowPrivate);
    if (!checked.ok) {
      return this.fail(ref, 'refused', checked.reason === 'invalid' ? FAILURE_TEXT.invalidTarget : FAILURE_TEXT.refusedTarget);
    }

    await pool.waitForSlot(keepAlive);
    const limits: TraceLimits = {
      maxHops: Math.min(task.maxHops === 0 ? this.config.defaultMaxHops : task.maxHops, this.config.maxHops, MAX_HOPS_LIMIT),
      queriesPerHop: this.config.queriesPerHop,
      waitMs: this.config.waitMs,
    };
    logger.info({ taskId: task.taskId, family: checked.target.family, maxHops: limits.maxHops }, 'trace started');
    pool.launch(task.taskId, (stop) =>
      runTrace(ref, checked.target, limits, stop, { tracer: this.deps.tracer, timeoutMs: this.deps.timeoutMs, sink, logger }),
    );
    return 'started';
  }

  private expiresAt({ task, time }: IncomingTask): number {
    if (task.expiresAt !== undefined) return task.expiresAt.getTime();
    const published = Date.parse(time);
    return (Number.isNaN(published) ? this.deps.clock.now().getTime() : published) + this.config.defaultTtlMs;
  }

  private async fail(ref: TaskRef, outcome: IntakeOutcome, text: string): Promise<IntakeOutcome> {
    this.deps.logger.info({ taskId: ref.taskId, outcome }, 'probe task not run');
    this.deps.pool.remember(ref.taskId);
    try {
      await this.deps.sink.failed(ref, text);
    } catch (error) {
      // The record is committed anyway: the task would not run on a second delivery either.
      this.deps.logger.warn({ taskId: ref.taskId, reason: errorText(error) }, 'could not publish a task refusal');
    }
    return outcome;
  }
}
