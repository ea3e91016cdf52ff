import {
  EventConsumer,
  InvalidArgumentError,
  PoisonRecordError,
  RedisEventDeduplicator,
  TOPICS,
  type EventProducer,
} from '@ipdata/common';
import { FeedbackKind, type FeedbackReceived } from '@ipdata/proto/events/v1/content';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { ContactAcknowledgements } from '../../contact/contact-acknowledgements.js';

/**
 * content.feedback.v1 → the acknowledgement mail of face B's contact form (kind CONTACT; the
 * other kinds are for the data team and are skipped). Group `<auth group>.contact`. Event ids
 * are de-duplicated in Redis; the mail outbox's per-submission key covers the rest (a handler
 * that succeeded but whose id was not marked, a re-send under another id).
 */
export function contactConsumer(options: {
  kafka: Kafka;
  groupId: string;
  acknowledgements: ContactAcknowledgements;
  dlqProducer: EventProducer;
  redis: Redis;
  logger: Logger;
}): EventConsumer<FeedbackReceived> {
  return EventConsumer.fromConfig(
    {
      kafka: options.kafka,
      groupId: options.groupId,
      topic: TOPICS.contentFeedback,
      dlqProducer: options.dlqProducer,
      deduplicator: new RedisEventDeduplicator(options.redis, { namespace: options.groupId }),
      handler: async ({ event, id, time }) => {
        if (event.kind !== FeedbackKind.FEEDBACK_KIND_CONTACT) return;
        const outcome = await options.acknowledgements
          .acknowledge({
            submissionId: event.submissionId,
            email: event.fields['email'] ?? '',
            category: event.fields['category'] ?? '',
            receivedAt: event.meta?.time ?? new Date(time),
          })
          .catch((error: unknown) => {
            // No id or no address: retrying cannot help.
            throw error instanceof InvalidArgumentError ? new PoisonRecordError(error.message) : error;
          });
        const log = { eventId: id, submissionId: event.submissionId, outcome };
        if (outcome === 'address_limit')
          options.logger.warn(log, 'contact acknowledgement skipped: address over its hourly mail limit');
        else options.logger.info(log, 'contact acknowledgement');
      },
    },
    options.logger,
  );
}
