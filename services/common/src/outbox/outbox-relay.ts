import type { Collection } from 'mongoose';
import type { Logger } from 'pino';
import { errorText } from '../errors/error-text.js';
import type { EventProducer } from '../kafka/event-producer.js';
import { TOPIC_CATALOGUE } from '../kafka/topic-catalogue.js';
import type { EventWithMeta, TopicDefinition } from '../kafka/topic-definition.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { PeriodicTask } from '../lifecycle/periodic-task.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { OutboxEvent } from './outbox-event.js';

export interface OutboxRelayConfig {
  /** Component and log name, e.g. 'subscriptions-outbox'. */
  name: string;
  /** The collection whose documents carry `pendingEvents` (`model.collection`). */
  collection: Collection;
  producer: EventProducer;
  /** Topics the events may go to; default: the whole catalogue. */
  topics?: readonly TopicDefinition<EventWithMeta>[];
  /** How often the relay looks for events left behind (default 5 s). */
  intervalMs?: number;
  /**
   * Events younger than this are left to the writer's own `publishPending` (default 10 s), so
   * the relay does not send nearly every event twice.
   */
  staleAfterMs?: number;
  /** Documents per relay run (default 100). */
  batchSize?: number;
  clock?: Clock;
  /**
   * Runs right before each send (one document's consecutive events for one topic, oldest first,
   * `value` as a Buffer, with their `attachment`), from `publishPending` and from the relay. If it
   * throws, that send does not happen and the events stay pending: `publishPending` returns false,
   * the relay logs it and tries again on a later run. It can see the same events more than once
   * (a retry after Kafka failed, two senders, a crash after it ran), so it must be idempotent,
   * e.g. an upsert keyed by event id. Billing records the plan history here.
   */
  beforeSend?: (entries: readonly OutboxEvent[]) => Promise<void>;
}

export interface RelayResult {
  documents: number;
  events: number;
}

interface PendingDoc {
  _id: unknown;
  pendingEvents?: Array<Omit<OutboxEvent, 'value'> & { value: unknown }>;
}

/** A send Kafka did not acknowledge: stop this run (the broker is likely down), retry next time. */
class SendFailed extends Error {}

/** `beforeSend` threw: that document's events wait for a later run, the other documents go on. */
class BeforeSendFailed extends Error {}

/**
 * Publishes the events stored in documents' `pendingEvents` (see outbox-mongo.ts) and removes
 * each one only after Kafka acknowledged it. Writers call `publishPending(id)` right after their
 * write; a periodic run re-sends whatever is older than `staleAfterMs` (Kafka was down, the
 * process died between the write and the send).
 *
 * Guarantees: an event stored with its document is published at least once; the events of one
 * document go out in the order they were stored (oldest first, the next only after the previous
 * was acknowledged or sent in the same batch) with the document's key; a duplicate is possible
 * (two senders, a crash after the ack) and consumers drop it by event id. It works on FerretDB:
 * no transactions, no change streams. An acknowledged event is removed with
 * `$pop` guarded by `pendingEvents.0.id`, because FerretDB's `$pull` cannot match on a field of
 * an array element; events are always sent from the head, so the acknowledged ones are a prefix.
 */
export class OutboxRelay implements Component {
  readonly name: string;
  private readonly task: PeriodicTask;
  private readonly topics: Map<string, TopicDefinition<EventWithMeta>>;
  private readonly clock: Clock;

  private constructor(
    private readonly config: OutboxRelayConfig,
    private readonly logger: Logger,
  ) {
    this.name = config.name;
    this.clock = config.clock ?? systemClock;
    this.topics = new Map((config.topics ?? TOPIC_CATALOGUE).map((topic) => [topic.name, topic]));
    this.task = PeriodicTask.fromConfig(
      { name: config.name, intervalMs: config.intervalMs ?? 5_000, run: () => this.relayOnce() },
      logger,
    );
  }

  static fromConfig(config: OutboxRelayConfig, logger: Logger): OutboxRelay {
    return new OutboxRelay(config, logger);
  }

  start(): Promise<void> {
    return this.task.start();
  }

  shutdown(): Promise<void> {
    return this.task.shutdown();
  }

  /**
   * Sends the pending events of one document now (call it right after the write). Never throws:
   * on failure the events stay in the document for the relay. Returns whether none is left.
   */
  async publishPending(id: unknown): Promise<boolean> {
    try {
      const doc = await this.config.collection.findOne({ _id: id } as never, {
        projection: { pendingEvents: 1 },
        promoteBuffers: true,
      });
      if (doc === null) return true;
      await this.deliver(doc);
      return true;
    } catch (error) {
      this.logger.warn({ err: error, outbox: this.name, reason: errorText(error) }, 'events not sent yet, the relay will retry');
      return false;
    }
  }

  /**
   * One relay pass over documents with an event older than `staleAfterMs`. Rejects when Kafka
   * does not acknowledge (the periodic task logs it and tries again later).
   */
  async relayOnce(): Promise<RelayResult> {
    const cutoff = new Date(this.clock.now().getTime() - (this.config.staleAfterMs ?? 10_000));
    const docs = await this.config.collection
      .find({ 'pendingEvents.createdAt': { $lte: cutoff } } as never, {
        projection: { pendingEvents: 1 },
        promoteBuffers: true,
      })
      .limit(this.config.batchSize ?? 100)
      .toArray();
    const result: RelayResult = { documents: 0, events: 0 };
    for (const doc of docs as PendingDoc[]) {
      let sent: number;
      try {
        sent = await this.deliver(doc);
      } catch (error) {
        if (error instanceof SendFailed) throw error;
        if (error instanceof BeforeSendFailed) {
          this.logger.warn(
            { err: error.cause, outbox: this.name, id: doc._id, reason: error.message },
            'events not sent yet, the relay will retry',
          );
          continue;
        }
        // A document the relay cannot read (undecodable value) must not stop the others.
        this.logger.error({ err: error, outbox: this.name, id: doc._id }, 'cannot relay the events of a document');
        continue;
      }
      if (sent > 0) {
        result.documents += 1;
        result.events += sent;
      }
    }
    if (result.events > 0) this.logger.info({ outbox: this.name, ...result }, 'relayed pending events');
    return result;
  }

  /** Test hook: one relay run now, errors logged as in production. */
  runNow(): Promise<void> {
    return this.task.runNow();
  }

  /** Sends a document's events in order, runs of the same topic as one batch; returns how many went out. */
  private async deliver(doc: PendingDoc): Promise<number> {
    const pending = doc.pendingEvents ?? [];
    let sent = 0;
    let start = 0;
    while (start < pending.length) {
      let end = start + 1;
      while (end < pending.length && pending[end]!.topic === pending[start]!.topic) end++;
      const run = pending.slice(start, end);
      const topic = this.topics.get(run[0]!.topic);
      if (topic === undefined) {
        // Nothing after it may overtake it; a deploy that knows the topic will send them.
        this.logger.error({ outbox: this.name, topic: run[0]!.topic, eventId: run[0]!.id }, 'outbox event for an unknown topic');
        return sent;
      }
      const entries = run.map(storedEvent);
      const events = entries.map((entry) => ({ event: topic.codec.decode(entry.value), key: entry.key }));
      if (this.config.beforeSend) {
        try {
          await this.config.beforeSend(entries);
        } catch (error) {
          throw new BeforeSendFailed(`${this.name}: beforeSend failed for ${entries.length} event(s): ${errorText(error)}`, {
            cause: error,
          });
        }
      }
      try {
        await this.config.producer.sendMany(topic, events);
      } catch (error) {
        throw new SendFailed(`${this.name}: Kafka did not acknowledge ${run.length} event(s): ${errorText(error)}`, {
          cause: error,
        });
      }
      for (const entry of run) {
        // Only if it is still the head: another sender may have removed it already.
        await this.config.collection.updateOne(
          { _id: doc._id, 'pendingEvents.0.id': entry.id } as never,
          {
            $pop: { pendingEvents: -1 },
          } as never,
        );
      }
      sent += run.length;
      start = end;
    }
    return sent;
  }
}

/** A stored event as the writer made it (value as a Buffer), for beforeSend and decoding. */
function storedEvent(entry: Omit<OutboxEvent, 'value'> & { value: unknown }): OutboxEvent {
  const value = bytes(entry.value);
  return {
    id: entry.id,
    topic: entry.topic,
    key: entry.key,
    value: Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
    createdAt: entry.createdAt,
    ...(entry.attachment === undefined ? {} : { attachment: entry.attachment }),
  };
}

/** The driver returns binData as a Binary unless promoteBuffers applies (it does not inside arrays on every server). */
function bytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'object' && value !== null && 'buffer' in value && value.buffer instanceof Uint8Array) {
    return value.buffer;
  }
  throw new TypeError('outbox event value is not binary data');
}
