import { TOPICS, type EventProducer } from '@ipdata/common';
import { ProbeState, type ProbeHop, type ProbeResult } from '@ipdata/proto/events/v1/probe';
import type { ProbeResultSink, TaskRef } from '../../tasks/task-ports.js';
import type { TraceHop } from '../../traceroute/traceroute-output.parser.js';

export interface WorkerIdentity {
  workerId: string;
  site: string;
  siteName: string;
}

export interface HeartbeatState {
  running: number;
  capacity: number;
  startedAt: Date;
  intervalSeconds: number;
}

function toProtoHop(hop: TraceHop): ProbeHop {
  return {
    ttl: hop.ttl,
    ip: hop.ip,
    rttMs: hop.rttMs,
    sent: hop.sent,
    lost: hop.lost,
    // The worker runs traceroute with -n: it resolves no names (bff-cn looks the addresses up).
    hostname: '',
    otherIps: hop.otherIps,
    annotations: hop.annotations,
  };
}

/**
 * ProbeResult records on probe.result.v1: a task's records keyed by task id (one partition, in
 * order), correlated with the task's event id; heartbeats keyed by worker id with an empty task id.
 */
export class ProbeResultPublisher implements ProbeResultSink {
  constructor(
    private readonly producer: EventProducer,
    private readonly worker: WorkerIdentity,
  ) {}

  async running(task: TaskRef, hops: readonly TraceHop[]): Promise<void> {
    await this.sendForTask(task, { state: ProbeState.PROBE_STATE_RUNNING, hops: hops.map(toProtoHop) });
  }

  async done(task: TaskRef): Promise<void> {
    await this.sendForTask(task, { state: ProbeState.PROBE_STATE_DONE });
  }

  async failed(task: TaskRef, error: string): Promise<void> {
    await this.sendForTask(task, { state: ProbeState.PROBE_STATE_FAILED, error });
  }

  async heartbeat(state: HeartbeatState): Promise<void> {
    await this.producer.send(
      TOPICS.probeResult,
      this.result('', {
        heartbeat: {
          siteName: this.worker.siteName,
          running: state.running,
          capacity: state.capacity,
          startedAt: state.startedAt,
          intervalSeconds: state.intervalSeconds,
        },
      }),
      { key: this.worker.workerId },
    );
  }

  private async sendForTask(task: TaskRef, fields: Partial<ProbeResult>): Promise<void> {
    await this.producer.send(TOPICS.probeResult, this.result(task.taskId, fields), {
      key: task.taskId,
      correlationId: task.eventId,
    });
  }

  private result(taskId: string, fields: Partial<ProbeResult>): ProbeResult {
    return {
      meta: undefined,
      taskId,
      workerId: this.worker.workerId,
      site: this.worker.site,
      state: ProbeState.PROBE_STATE_UNSPECIFIED,
      hops: [],
      error: '',
      heartbeat: undefined,
      ...fields,
    };
  }
}
