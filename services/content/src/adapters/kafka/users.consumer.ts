import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { UserEventKind, type UserEvent } from '@ipdata/proto/events/v1/user';
import { EventConsumer, PoisonRecordError, TOPICS, type EventProducer } from '@ipdata/common';
import { welcomeMessage } from '../../messages/message-texts.js';
import type { Messages } from '../../messages/messages.js';

/**
 * auth.user.v1 REGISTERED → a welcome message. The message id is derived from the event id,
 * so a re-delivered event adds nothing (no de-duplication store needed).
 */
export function usersConsumer(
  deps: { kafka: Kafka; groupId: string; dlqProducer: EventProducer; sessionTimeoutMs?: number; messages: Messages },
  logger: Logger,
): EventConsumer<UserEvent> {
  return EventConsumer.fromConfig(
    {
      kafka: deps.kafka,
      groupId: deps.groupId,
      topic: TOPICS.authUser,
      dlqProducer: deps.dlqProducer,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      handler: async ({ event, id, time }) => {
        if (event.kind !== UserEventKind.USER_EVENT_KIND_REGISTERED) return;
        if (event.accountId === '') throw new PoisonRecordError('REGISTERED without an account id');
        await deps.messages.add({
          ...welcomeMessage(),
          eventId: event.meta?.id || id,
          accountId: event.accountId,
          createdAt: event.meta?.time ?? new Date(time),
        });
      },
    },
    logger,
  );
}
