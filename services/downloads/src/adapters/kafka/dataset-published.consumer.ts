import { resolve } from 'node:path';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { EventConsumer, PoisonRecordError, TOPICS, errorText, type EventProducer } from '@ipdata/common';
import type { Catalogue } from '../../catalogue/catalogue.js';
import { isVersionName } from '../../catalogue/dataset-version.js';

/**
 * dataset.published.v1 → the catalogue. The files are read from `<DATASETS_DIR>/<version>`
 * (the event's `location` is only compared, never followed: this service trusts its own dataset
 * volume). Idempotent: a known version is not read again and the current pointer only moves to a
 * newer build. A version without a folder is skipped (pruned, or another volume's); one whose
 * manifest is invalid goes to the DLQ at once.
 */
export function datasetPublishedConsumer(
  deps: {
    kafka: Kafka;
    groupId: string;
    dlqProducer: EventProducer;
    sessionTimeoutMs?: number;
    catalogue: Catalogue;
    datasetsDir: string;
    onPublished: () => void;
  },
  logger: Logger,
): EventConsumer<DatasetPublished> {
  return EventConsumer.fromConfig(
    {
      kafka: deps.kafka,
      groupId: deps.groupId,
      topic: TOPICS.datasetPublished,
      dlqProducer: deps.dlqProducer,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      handler: async ({ event }) => {
        if (!isVersionName(event.version)) throw new PoisonRecordError(`not a dataset version name: ${event.version}`);
        const folder = resolve(deps.datasetsDir, event.version);
        if (event.location !== '' && resolve(event.location) !== folder) {
          logger.warn(
            { version: event.version, location: event.location, folder },
            'dataset.published names another folder; using DATASETS_DIR',
          );
        }
        try {
          await deps.catalogue.publish(event.version);
        } catch (error) {
          // A folder that is gone was pruned (a new group replays the topic's 90 days) or lives on
          // another volume: nothing to offer, and nothing a retry or the DLQ would change.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            logger.warn({ version: event.version, folder }, 'dataset.published for a version not in DATASETS_DIR; skipped');
            return;
          }
          if (error instanceof SyntaxError || isManifestError(error)) {
            throw new PoisonRecordError(`dataset ${event.version}: ${errorText(error)}`);
          }
          throw error;
        }
        deps.onPublished();
      },
    },
    logger,
  );
}

function isManifestError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('manifest.json');
}
