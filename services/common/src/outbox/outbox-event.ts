import { randomUUID } from 'node:crypto';
import { EventMeta } from '@ipdata/proto/events/v1/envelope';
import type { EventWithMeta, TopicDefinition } from '../kafka/topic-definition.js';

/**
 * One event waiting in a document's `pendingEvents` array until Kafka acknowledged it. The value
 * is the encoded protobuf event with its id and time fixed at write time, so a re-send (relay,
 * another replica) carries the same id and consumers can drop the duplicate.
 */
export interface OutboxEvent {
  /** The event id (EventMeta.id, CloudEvents ce_id). */
  id: string;
  /** Topic name; the relay looks its definition up to decode and send. */
  topic: string;
  /** Record key (the aggregate: account id, subscription id, ...), so one aggregate keeps its order. */
  key: string;
  value: Buffer;
  createdAt: Date;
  /**
   * Data the writer stores with the event for `OutboxRelayConfig.beforeSend`, when the step
   * before sending needs fields the encoded event does not carry (billing: the plan-history
   * record). Never sent to Kafka. Plain BSON values only (strings, numbers, booleans, Dates,
   * nested objects and arrays); it comes back as the driver reads it.
   */
  attachment?: Record<string, unknown>;
}

/**
 * Encodes an event for the outbox. `now` is the writer's clock (event time and the relay's age
 * check); an id already in `event.meta` is kept (a domain change id), otherwise a UUID is made.
 * `attachment` is stored with the event for the relay's `beforeSend` (see OutboxEvent).
 */
export function outboxEvent<T extends EventWithMeta>(
  topic: TopicDefinition<T>,
  event: T,
  options: { key: string; now: Date; attachment?: Record<string, unknown> },
): OutboxEvent {
  const id = event.meta?.id || randomUUID();
  const meta = EventMeta.fromPartial(Object.assign({}, event.meta, { id, time: event.meta?.time ?? options.now }));
  return {
    id,
    topic: topic.name,
    key: options.key,
    value: Buffer.from(topic.codec.encode(Object.assign({}, event, { meta })).finish()),
    createdAt: options.now,
    // Absent rather than undefined, so events without one are stored exactly as before.
    ...(options.attachment === undefined ? {} : { attachment: options.attachment }),
  };
}
