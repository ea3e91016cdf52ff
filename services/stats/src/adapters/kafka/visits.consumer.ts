import type { Kafka } from 'kafkajs';
import type { SiteVisit } from '@ipdata/proto/events/v1/visit';
import {
  EventConsumer,
  PoisonRecordError,
  TOPICS,
  type BatchOutcome,
  type EventProducer,
  type Logger,
  type TopicDefinition,
} from '@ipdata/common';
import type { VisitBatchHandler } from '../../visits/visit-batch.handler.js';

/** The visits' consumer group: its own, because kafkajs wants one topic set per group (TOPICS.md). */
export function visitsGroupId(kafkaGroupId: string): string {
  return `${kafkaGroupId}.visits`;
}

/**
 * site.visit.v1 → VisitBatchHandler, in batch mode: each chunk of one partition is one write
 * round, committed after the handler resolved and its poison records went to site.visit.v1.dlq.
 */
export function createVisitsConsumer(
  deps: {
    kafka: Kafka;
    /** KAFKA_GROUP_ID; the group is `<id>.visits`. */
    kafkaGroupId: string;
    handler: VisitBatchHandler;
    dlqProducer: EventProducer;
    /** LEDGER_BATCH_MAX: records per write round. */
    maxBatchEvents: number;
    /** KAFKA_SESSION_TIMEOUT_MS. */
    sessionTimeoutMs?: number;
    /** TOPICS.siteVisit unless a test gives a topic of its own. */
    topic?: TopicDefinition<SiteVisit>;
  },
  logger: Logger,
): EventConsumer<SiteVisit> {
  const log = logger.child({ module: 'visits-consumer' });
  return EventConsumer.fromConfig<SiteVisit>(
    {
      kafka: deps.kafka,
      groupId: visitsGroupId(deps.kafkaGroupId),
      topic: deps.topic ?? TOPICS.siteVisit,
      maxBatchEvents: deps.maxBatchEvents,
      ...(deps.sessionTimeoutMs === undefined ? {} : { sessionTimeoutMs: deps.sessionTimeoutMs }),
      dlqProducer: deps.dlqProducer,
      batchHandler: async (batch): Promise<BatchOutcome<SiteVisit>> => {
        const records = batch.events.map((consumed) => ({ offset: Number(consumed.offset), event: consumed.event }));
        const result = await deps.handler.handle(batch.partition, records);
        if (result.duplicates > 0)
          log.debug({ partition: batch.partition, duplicates: result.duplicates }, 'skipped re-sent visits');
        if (result.poison.length === 0) return {};
        const byOffset = new Map(batch.events.map((consumed) => [Number(consumed.offset), consumed]));
        return {
          poison: result.poison.flatMap(({ offset, reason }) => {
            const event = byOffset.get(offset);
            return event === undefined ? [] : [{ event, error: new PoisonRecordError(reason) }];
          }),
        };
      },
    },
    logger,
  );
}
