import { Schema } from 'mongoose';
import type { OutboxEvent } from './outbox-event.js';

const outboxEventSchema = new Schema<OutboxEvent>(
  {
    id: { type: String, required: true },
    topic: { type: String, required: true },
    key: { type: String, required: true },
    value: { type: Buffer, required: true },
    createdAt: { type: Date, required: true },
    // Free-form on purpose: each writer decides what its beforeSend needs.
    attachment: { type: Schema.Types.Mixed, required: false },
  },
  { _id: false },
);

/** Spread into a mongoose schema definition: `new Schema({ ...fields, ...pendingEventsField })`. */
export const pendingEventsField = {
  pendingEvents: { type: [outboxEventSchema], default: [] },
};

/** `schema.index(PENDING_EVENTS_INDEX)`: the relay's query for events older than its threshold. */
export const PENDING_EVENTS_INDEX = { 'pendingEvents.createdAt': 1 } as const;

/**
 * The part of an update that stores events with the state change, in the same single-document
 * write (so the change and its events are saved together or not at all):
 * `updateOne(filter, { $set: changes, ...outboxUpdate(events) })`. For an insert, set
 * `pendingEvents: events` in the document. Never `$set` pendingEvents: that would drop events a
 * concurrent writer pushed or that are not acknowledged yet.
 */
export function outboxUpdate(events: readonly OutboxEvent[]): { $push: { pendingEvents: { $each: OutboxEvent[] } } } {
  return { $push: { pendingEvents: { $each: [...events] } } };
}
