import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { EventConsumer, TOPICS, type EventProducer } from '@ipdata/common';
import type { ProbeTask } from '@ipdata/proto/events/v1/probe';
import type { TaskIntake } from '../../tasks/task-intake.js';

export interface ProbeTaskConsumerConfig {
  kafka: Kafka;
  /** `probe.<site>`: the workers of one site share the tasks, each site gets every task. */
  groupId: string;
  dlqProducer: EventProducer;
  sessionTimeoutMs: number;
  /** Where a group without committed offsets starts (a new site does not run a day of stale tasks). */
  fromBeginning: boolean;
  intake: TaskIntake;
}

/**
 * probe.task.v1 → TaskIntake, one record at a time (batch mode with chunks of one record, for the
 * group heartbeat while the intake waits for a free slot). A record is committed once the intake
 * returned: the task was started, refused (FAILED sent) or skipped. While the worker stops, the
 * intake throws a transient error, the record stays uncommitted and is delivered again later.
 */
export function probeTaskConsumer(config: ProbeTaskConsumerConfig, logger: Logger): EventConsumer<ProbeTask> {
  return EventConsumer.fromConfig(
    {
      kafka: config.kafka,
      groupId: config.groupId,
      topic: TOPICS.probeTask,
      dlqProducer: config.dlqProducer,
      sessionTimeoutMs: config.sessionTimeoutMs,
      fromBeginning: config.fromBeginning,
      maxBatchEvents: 1,
      batchHandler: async (batch) => {
        for (const consumed of batch.events) {
          const outcome = await config.intake.accept({ task: consumed.event, id: consumed.id, time: consumed.time }, () =>
            batch.heartbeat(),
          );
          logger.debug({ taskId: consumed.event.taskId, outcome }, 'probe task handled');
        }
        return {};
      },
    },
    logger,
  );
}
