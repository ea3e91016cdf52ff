import { TOPICS, type EventProducer } from '@ipdata/common';
import { ProbeKind, ProbeTask } from '@ipdata/proto/events/v1/probe';
import type { NewProbeTask, ProbeTaskPublisher } from '../../traceroute/traceroute.ports.js';

/** ProbeTask on probe.task.v1, key = task id (the worker keys its results by it). */
export class KafkaProbeTaskPublisher implements ProbeTaskPublisher {
  constructor(private readonly producer: EventProducer) {}

  async publish(task: NewProbeTask): Promise<void> {
    const event = ProbeTask.fromPartial({
      taskId: task.taskId,
      kind: ProbeKind.PROBE_KIND_TRACEROUTE,
      target: task.target,
      targetInput: task.targetInput,
      maxHops: task.maxHops,
      site: task.site,
      expiresAt: new Date(task.expiresAt),
      visitorId: task.visitorId,
    });
    await this.producer.send(TOPICS.probeTask, event, { key: task.taskId });
  }
}
