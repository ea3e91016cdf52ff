import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { EventConsumer, TOPICS, type EventProducer } from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { LedgerBatchHandler } from '../../ledger/ledger-batch.handler.js';

/**
 * usage.lookup.v1 → LedgerBatchHandler in batch mode: each chunk of one partition is one write
 * round; its offsets are committed after the round and its poison records went to the DLQ.
 */
export function ledgerConsumer(
  deps: {
    kafka: Kafka;
    groupId: string;
    dlqProducer: EventProducer;
    handler: LedgerBatchHandler;
    maxBatchEvents: number;
    sessionTimeoutMs?: number;
    /** false: a new group reads only what arrives from now on. */
    fromBeginning?: boolean;
  },
  logger: Logger,
): EventConsumer<UsageEvent> {
  return EventConsumer.fromConfig<UsageEvent>(
    {
      kafka: deps.kafka,
      groupId: deps.groupId,
      topic: TOPICS.usageLookup,
      dlqProducer: deps.dlqProducer,
      maxBatchEvents: deps.maxBatchEvents,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      fromBeginning: deps.fromBeginning,
      batchHandler: async (batch) => {
        const result = await deps.handler.handle(batch);
        if (result.duplicates > 0)
          logger.debug({ partition: batch.partition, duplicates: result.duplicates }, 're-sent events skipped');
        return { poison: result.poison };
      },
    },
    logger,
  );
}
