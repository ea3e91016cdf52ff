import { join, resolve, sep } from 'node:path';
import { EventConsumer, TOPICS, type EventProducer, type Logger } from '@ipdata/common';
import type { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { DATASET_FILE } from '@ipdata/dataset/format';
import type { Kafka } from 'kafkajs';
import type { DatasetStore } from '../../dataset/dataset-store.js';

/**
 * Every engine replica must hear every dataset.published event, so each one consumes in its own
 * group (`lookup-engine.<instance>`) rather than sharing the service's group. Replays of old
 * events are harmless: the version in service, or one built before it, is skipped.
 */
export function datasetPublishedConsumer(
  deps: { kafka: Kafka; producer: EventProducer; store: DatasetStore; instanceId: string; datasetsDir: string },
  logger: Logger,
): EventConsumer<DatasetPublished> {
  return EventConsumer.fromConfig(
    {
      kafka: deps.kafka,
      groupId: `lookup-engine.${deps.instanceId}`,
      topic: TOPICS.datasetPublished,
      dlqProducer: deps.producer,
      maxAttempts: 1,
      handler: async ({ event }) => {
        // Only the dataset volume this replica is configured with is trusted as a source of files.
        const root = resolve(deps.datasetsDir) + sep;
        if (!resolve(event.location).startsWith(root)) {
          logger.warn(
            { version: event.version, location: event.location, datasetsDir: deps.datasetsDir },
            'dataset.published points outside DATASETS_DIR; skipped',
          );
          return;
        }
        const current = deps.store.summary;
        if (current !== undefined && (event.version === current.version || (event.builtAt ?? new Date(0)) < current.builtAt)) {
          logger.info(
            { version: event.version, current: current.version },
            'dataset.published for a version not newer than the one in service; skipped',
          );
          return;
        }
        // A refused file is logged by the store and the old dataset keeps serving; retrying would not help.
        await deps.store.load(join(event.location, DATASET_FILE));
      },
    },
    logger,
  );
}
