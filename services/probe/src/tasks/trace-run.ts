import type { Logger } from 'pino';
import { errorText } from '@ipdata/common';
import type { TraceLimits } from '../traceroute/traceroute-args.js';
import type { TraceHop } from '../traceroute/traceroute-output.parser.js';
import type { ProbeTarget } from './probe-target.js';
import type { AbortReason } from './task-pool.js';
import { FAILURE_TEXT, type ProbeResultSink, type TaskRef, type TraceEnd, type Tracer } from './task-ports.js';

export interface TraceRunDeps {
  tracer: Tracer;
  sink: ProbeResultSink;
  /** A run longer than this is killed and ends FAILED "探测超时". */
  timeoutMs: number;
  logger: Logger;
}

/**
 * One accepted traceroute task from start to its last event: RUNNING (picked up), RUNNING with
 * the hops as traceroute prints them, then DONE or FAILED. Hops that arrive while the previous
 * record is being sent go out together in the next one (one record per line on a quiet run, fewer
 * on a fast one); each TTL is sent at most once and in order, and the final record is sent after
 * every hop record. `stop` aborts the run with reason 'stopped' (shutdown); the timeout with 'timeout'.
 */
export async function runTrace(
  task: TaskRef,
  target: ProbeTarget,
  limits: TraceLimits,
  stop: AbortSignal,
  deps: TraceRunDeps,
): Promise<void> {
  const { sink, logger } = deps;
  const controller = new AbortController();
  const abort = (reason: AbortReason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => abort('timeout'), deps.timeoutMs);
  const onStop = () => abort('stopped');
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });

  const sender = new HopSender(task, sink, logger);
  let end: TraceEnd;
  try {
    sender.start();
    end = await deps.tracer.trace(target, limits, (hop) => sender.add(hop), controller.signal);
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
  await sender.flushed();

  const failure = failureText(end, controller.signal.reason as AbortReason | undefined);
  logger.info(
    { taskId: task.taskId, end: end.kind, detail: 'detail' in end ? end.detail : undefined, hops: sender.sentTtls },
    'trace ended',
  );
  try {
    if (failure === undefined) await sink.done(task);
    else await sink.failed(task, failure);
  } catch (error) {
    logger.error({ taskId: task.taskId, reason: errorText(error) }, 'could not publish the end of a task');
  }
}

function failureText(end: TraceEnd, reason: AbortReason | undefined): string | undefined {
  switch (end.kind) {
    case 'done':
      return undefined;
    case 'unavailable':
      return FAILURE_TEXT.unavailable;
    case 'exit':
      return FAILURE_TEXT.exit;
    case 'aborted':
      return reason === 'timeout' ? FAILURE_TEXT.timeout : FAILURE_TEXT.stopped;
  }
}

/** Sends hop records one at a time, in order, batching what arrives meanwhile. */
class HopSender {
  private pending: TraceHop[] = [];
  private lastTtl = 0;
  private chain: Promise<void> = Promise.resolve();
  private sending = false;
  sentTtls = 0;

  constructor(
    private readonly task: TaskRef,
    private readonly sink: ProbeResultSink,
    private readonly logger: Logger,
  ) {}

  /** The "picked up" record. */
  start(): void {
    this.sending = true;
    this.chain = this.send([]);
  }

  add(hop: TraceHop): void {
    // traceroute prints each TTL once, in order; anything else is not sent (each (task, ttl) at most once).
    if (hop.ttl <= this.lastTtl) return;
    this.lastTtl = hop.ttl;
    this.pending.push(hop);
    if (!this.sending) this.pump();
  }

  async flushed(): Promise<void> {
    for (;;) {
      const chain = this.chain;
      await chain;
      if (chain === this.chain && this.pending.length === 0) return;
    }
  }

  private pump(): void {
    const hops = this.pending;
    this.pending = [];
    this.sending = true;
    this.chain = this.send(hops);
  }

  private async send(hops: TraceHop[]): Promise<void> {
    try {
      await this.sink.running(this.task, hops);
      this.sentTtls += hops.length;
    } catch (error) {
      // Kafka down for longer than the producer's timeout: those hops are lost, the run goes on.
      this.logger.warn({ taskId: this.task.taskId, hops: hops.length, reason: errorText(error) }, 'could not publish hops');
    }
    this.sending = false;
    if (this.pending.length > 0) this.pump();
  }
}
