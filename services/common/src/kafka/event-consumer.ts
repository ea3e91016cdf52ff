import { setTimeout as sleep } from 'node:timers/promises';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { isTransientError } from '../errors/domain-errors.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { backoffDelay } from '../lifecycle/retry.js';
import { errorText } from '../errors/error-text.js';
import { headersToStrings, MalformedEventError, readCloudEventAttributes } from './cloudevents.js';
import type { EventDeduplicator } from './event-deduplicator.js';
import type { EventProducer } from './event-producer.js';
import { dlqTopicName, type EventWithMeta, type TopicDefinition } from './topic-definition.js';
import { recordConsumerLag, recordDeadLetter } from '../metrics/kafka-metrics.js';

export interface ConsumedEvent<T> {
  event: T;
  id: string;
  type: string;
  source: string;
  time: string;
  key: string | null;
  topic: string;
  partition: number;
  offset: string;
  headers: Readonly<Record<string, string>>;
}

export type EventHandler<T> = (event: ConsumedEvent<T>) => Promise<void>;

/** A chunk of one partition's records, decoded, in offset order (batch mode). */
export interface ConsumedBatch<T> {
  topic: string;
  partition: number;
  events: ConsumedEvent<T>[];
  /** Keeps the group membership alive during long work. */
  heartbeat(): Promise<void>;
}

/** What a batch handler reports: records it could never handle go to `<topic>.dlq`. */
export interface BatchOutcome<T> {
  poison?: Array<{ event: ConsumedEvent<T>; error: Error }>;
}

export type BatchHandler<T> = (batch: ConsumedBatch<T>) => Promise<BatchOutcome<T>>;

export interface EventConsumerConfig<T extends EventWithMeta> {
  kafka: Kafka;
  /** Consumer group = the consuming service's name (TOPICS.md). */
  groupId: string;
  topic: TopicDefinition<T>;
  /** Per-record mode. Exactly one of `handler` and `batchHandler` is given. */
  handler?: EventHandler<T>;
  /**
   * Batch mode: the handler gets up to `maxBatchEvents` records of one partition at a time and
   * the chunk's offsets are committed after it resolved (and its poison records were
   * dead-lettered). It must be idempotent per record: a crash re-delivers the whole chunk.
   */
  batchHandler?: BatchHandler<T>;
  /**
   * Where a group without committed offsets starts: the whole topic (default; a ledger consumer
   * that joins for the first time must see everything), or only what arrives from now on.
   */
  fromBeginning?: boolean;
  /** Batch mode: records per chunk (default 2000). */
  maxBatchEvents?: number;
  /** Producer used to move poison records to `<topic>.dlq`. */
  dlqProducer: EventProducer;
  deduplicator?: EventDeduplicator;
  /**
   * Attempts for a failing handler before the record goes to the DLQ (transient errors retry until shutdown).
   * Batch mode: after this many failures of a chunk it is retried one record at a time, so only the bad
   * record ends in the DLQ.
   */
  maxAttempts?: number;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Per-record mode: commit after this many handled records even inside a large batch. */
  commitEvery?: number;
  sessionTimeoutMs?: number;
  partitionsConsumedConcurrently?: number;
  /** Called when a record is skipped because its event id was already handled. */
  onDuplicate?: (event: ConsumedEvent<T>) => void;
}

type Outcome = 'handled' | 'duplicate' | 'dead-lettered' | 'aborted';

/** Thrown by a handler for a record that can never succeed: it goes to the DLQ without retries. */
export class PoisonRecordError extends Error {
  override name = 'PoisonRecordError';
}

/**
 * Consumer wrapper: decodes protobuf values, de-duplicates by event id, retries the handler
 * with backoff, moves poison records to `<topic>.dlq` with the error in headers, and commits a
 * record's offset only after its handler succeeded (or the record was dead-lettered). On
 * shutdown it stops fetching, lets the record in hand finish and commits what was handled.
 * Batch mode (`batchHandler`) does the same per chunk of one partition's records; `pause()` and
 * `resume()` stop and restart it between chunks (e.g. to swap what the handler writes to).
 */
export class EventConsumer<T extends EventWithMeta> implements Component {
  readonly name: string;
  private readonly consumer: Consumer;
  private readonly abort = new AbortController();
  private joined = false;
  private crashed = false;
  private paused = false;
  /** Batches being processed right now (pause() waits for 0). */
  private inProgress = 0;
  private idleWaiters: Array<() => void> = [];

  private constructor(
    private readonly config: EventConsumerConfig<T>,
    private readonly logger: Logger,
  ) {
    if ((config.handler === undefined) === (config.batchHandler === undefined)) {
      throw new Error(`consumer ${config.groupId}: give exactly one of handler and batchHandler`);
    }
    if (config.batchHandler !== undefined && config.deduplicator !== undefined) {
      // A batch handler de-duplicates itself (it sees the whole chunk, e.g. one claim script per chunk).
      throw new Error(`consumer ${config.groupId}: a deduplicator works with handler only, not with batchHandler`);
    }
    this.name = `kafka-consumer:${config.topic.name}`;
    this.consumer = config.kafka.consumer({
      groupId: config.groupId,
      sessionTimeout: config.sessionTimeoutMs ?? 30_000,
      allowAutoTopicCreation: false,
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      this.joined = true;
      this.crashed = false;
    });
    this.consumer.on(this.consumer.events.CRASH, (event) => {
      this.crashed = true;
      this.logger.error({ reason: errorText(event.payload.error) }, 'consumer crashed');
    });
  }

  static fromConfig<T extends EventWithMeta>(config: EventConsumerConfig<T>, logger: Logger): EventConsumer<T> {
    return new EventConsumer(config, logger.child({ topic: config.topic.name, group: config.groupId }));
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    // A ledger consumer that joins for the first time must see the whole topic.
    await this.consumer.subscribe({ topics: [this.config.topic.name], fromBeginning: this.config.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.config.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) => this.processBatch(payload),
    });
    this.logger.info('consumer started');
  }

  /** Resolves once the consumer has joined its group (the first assignment happened). */
  async waitUntilJoined(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.joined) {
      if (Date.now() > deadline) throw new Error(`consumer ${this.config.groupId} did not join within ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  async isReady(): Promise<boolean> {
    return this.isConsuming();
  }

  /** Joined its group and not crashed (synchronous, for readiness checks of other components). */
  isConsuming(): boolean {
    return this.joined && !this.crashed;
  }

  async shutdown(): Promise<void> {
    this.abort.abort();
    // disconnect() waits for the batch in hand; processBatch commits what it handled before returning.
    await this.consumer.disconnect();
    this.logger.info('consumer stopped');
  }

  /**
   * Stops fetching and resolves once no batch is being processed: everything handled so far is
   * committed, nothing more is handled until resume(). A handler retrying a transient error keeps
   * pause() waiting until it succeeds (or shutdown).
   */
  async pause(): Promise<void> {
    this.paused = true;
    this.consumer.pause([{ topic: this.config.topic.name }]);
    if (this.inProgress === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  resume(): void {
    this.paused = false;
    this.consumer.resume([{ topic: this.config.topic.name }]);
  }

  private async processBatch(payload: EachBatchPayload): Promise<void> {
    // A batch fetched before pause() is left unresolved: it is fetched again after resume().
    if (this.paused) return;
    recordConsumerLag(this.config.groupId, payload.batch); // metrics hook (metrics/kafka-metrics.ts)
    this.inProgress++;
    try {
      if (this.config.batchHandler) await this.processChunks(payload, this.config.batchHandler);
      else await this.processRecords(payload);
    } finally {
      this.inProgress--;
      if (this.inProgress === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async processRecords(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const commitEvery = this.config.commitEvery ?? 100;
    let lastHandled: string | undefined;
    let sinceCommit = 0;
    const commit = async () => {
      if (lastHandled === undefined || sinceCommit === 0) return;
      const next = (BigInt(lastHandled) + 1n).toString();
      await this.consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }]);
      sinceCommit = 0;
    };
    try {
      for (const message of batch.messages) {
        if (!payload.isRunning() || payload.isStale() || this.abort.signal.aborted || this.paused) break;
        const outcome = await this.processMessage(batch.topic, batch.partition, message, () => payload.heartbeat());
        if (outcome === 'aborted') break;
        payload.resolveOffset(message.offset);
        lastHandled = message.offset;
        sinceCommit++;
        if (sinceCommit >= commitEvery) await commit();
        await payload.heartbeat();
      }
    } finally {
      await commit();
    }
  }

  /** Batch mode: the fetched batch in chunks of maxBatchEvents, each committed after it was handled. */
  private async processChunks(payload: EachBatchPayload, handler: BatchHandler<T>): Promise<void> {
    const { batch } = payload;
    const size = Math.max(1, this.config.maxBatchEvents ?? 2000);
    for (let start = 0; start < batch.messages.length; start += size) {
      if (!payload.isRunning() || payload.isStale() || this.abort.signal.aborted || this.paused) return;
      const chunk = batch.messages.slice(start, start + size);
      const span = trace.getTracer('@ipdata/common').startSpan(`${batch.topic} process batch`, {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': batch.topic,
          'messaging.batch.message_count': chunk.length,
        },
      });
      let handled: boolean;
      try {
        handled = await this.processChunk(handler, batch.topic, batch.partition, chunk, () => payload.heartbeat());
      } finally {
        span.end();
      }
      // Interrupted by shutdown: nothing of this chunk is committed, it is delivered again.
      if (!handled) return;
      const last = chunk[chunk.length - 1]!.offset;
      payload.resolveOffset(last);
      await this.consumer.commitOffsets([
        { topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
      ]);
      await payload.heartbeat();
    }
  }

  /** Returns false when shutdown interrupted the chunk. */
  private async processChunk(
    handler: BatchHandler<T>,
    topic: string,
    partition: number,
    chunk: KafkaMessage[],
    heartbeat: () => Promise<void>,
  ): Promise<boolean> {
    const messages = new Map<string, KafkaMessage>();
    const events: ConsumedEvent<T>[] = [];
    for (const message of chunk) {
      try {
        events.push(this.decode(topic, partition, message, headersToStrings(message.headers)));
        messages.set(message.offset, message);
      } catch (error) {
        await this.deadLetter(topic, partition, message, error, 0);
      }
    }
    if (events.length === 0) return true;
    const run = await this.runBatch(handler, { topic, partition, events, heartbeat });
    if (run === 'aborted') return false;
    if ('outcome' in run) {
      await this.deadLetterPoison(run.outcome, messages);
      return true;
    }
    if (events.length === 1) {
      await this.deadLetter(topic, partition, messages.get(events[0]!.offset)!, run.error, run.attempts);
      return true;
    }
    // The chunk keeps failing: one record at a time, so only the bad one ends in the DLQ.
    this.logger.warn(
      { partition, firstOffset: events[0]!.offset, events: events.length, reason: errorText(run.error) },
      'batch handler keeps failing, handling the chunk one record at a time',
    );
    for (const event of events) {
      const single = await this.runBatch(handler, { topic, partition, events: [event], heartbeat });
      if (single === 'aborted') return false;
      if ('outcome' in single) await this.deadLetterPoison(single.outcome, messages);
      else await this.deadLetter(topic, partition, messages.get(event.offset)!, single.error, single.attempts);
    }
    return true;
  }

  /** Calls the batch handler with backoff: transient errors until shutdown, others up to maxAttempts. */
  private async runBatch(
    handler: BatchHandler<T>,
    batch: ConsumedBatch<T>,
  ): Promise<{ outcome: BatchOutcome<T> } | { error: unknown; attempts: number } | 'aborted'> {
    const maxAttempts = this.config.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return { outcome: await handler(batch) };
      } catch (error) {
        const transient = isTransientError(error);
        if (!transient && (attempt >= maxAttempts || error instanceof PoisonRecordError)) return { error, attempts: attempt };
        const delay = this.retryDelay(attempt);
        this.logger.warn(
          {
            partition: batch.partition,
            firstOffset: batch.events[0]?.offset,
            events: batch.events.length,
            attempt,
            delayMs: delay,
            transient,
            reason: errorText(error),
          },
          'batch handler failed, retrying',
        );
        if (await this.sleepUnlessShutdown(delay)) return 'aborted';
        await batch.heartbeat();
      }
    }
  }

  private async deadLetterPoison(outcome: BatchOutcome<T>, messages: ReadonlyMap<string, KafkaMessage>): Promise<void> {
    for (const { event, error } of outcome.poison ?? []) {
      const message = messages.get(event.offset);
      // A poison entry that is not a record of the chunk is a handler bug; failing loudly beats losing a record.
      if (message === undefined) throw new Error(`batch handler reported poison at offset ${event.offset}, not in the chunk`);
      await this.deadLetter(event.topic, event.partition, message, error, 1);
    }
  }

  private retryDelay(attempt: number): number {
    return backoffDelay(attempt, this.config.initialRetryDelayMs ?? 200, this.config.maxRetryDelayMs ?? 10_000);
  }

  /** True when shutdown interrupted the wait. */
  private async sleepUnlessShutdown(delayMs: number): Promise<boolean> {
    return sleep(delayMs, false, { signal: this.abort.signal }).catch(() => true);
  }

  private async processMessage(
    topic: string,
    partition: number,
    message: KafkaMessage,
    heartbeat: () => Promise<void>,
  ): Promise<Outcome> {
    const headers = headersToStrings(message.headers);
    let consumed: ConsumedEvent<T>;
    try {
      consumed = this.decode(topic, partition, message, headers);
    } catch (error) {
      await this.deadLetter(topic, partition, message, error, 0);
      return 'dead-lettered';
    }

    const deduplicator = this.config.deduplicator;
    if (deduplicator && (await deduplicator.isProcessed(consumed.id))) {
      this.logger.debug({ eventId: consumed.id }, 'skipping duplicate event');
      this.config.onDuplicate?.(consumed);
      return 'duplicate';
    }

    const parentContext = propagation.extract(context.active(), headers);
    const span = trace.getTracer('@ipdata/common').startSpan(
      `${topic} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, 'messaging.message.id': consumed.id },
      },
      parentContext,
    );
    try {
      return await context.with(trace.setSpan(parentContext, span), () => this.handleWithRetry(consumed, message, heartbeat));
    } finally {
      span.end();
    }
  }

  private decode(topic: string, partition: number, message: KafkaMessage, headers: Record<string, string>): ConsumedEvent<T> {
    const attributes = readCloudEventAttributes(headers);
    if (attributes.type !== this.config.topic.eventType) {
      throw new MalformedEventError(`unexpected event type ${attributes.type}, expected ${this.config.topic.eventType}`);
    }
    if (message.value === null) throw new MalformedEventError('record has no value');
    let event: T;
    try {
      event = this.config.topic.codec.decode(message.value);
    } catch (error) {
      throw new MalformedEventError(`value is not a valid ${attributes.type}: ${errorText(error)}`);
    }
    return {
      event,
      ...attributes,
      key: message.key?.toString() ?? null,
      topic,
      partition,
      offset: message.offset,
      headers,
    };
  }

  private async handleWithRetry(
    consumed: ConsumedEvent<T>,
    message: KafkaMessage,
    heartbeat: () => Promise<void>,
  ): Promise<Outcome> {
    const maxAttempts = this.config.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.config.handler?.(consumed);
        await this.config.deduplicator?.markProcessed(consumed.id);
        return 'handled';
      } catch (error) {
        const span = trace.getActiveSpan();
        span?.recordException(error instanceof Error ? error : new Error(String(error)));
        const transient = isTransientError(error);
        if (!transient && (attempt >= maxAttempts || error instanceof PoisonRecordError)) {
          span?.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
          await this.deadLetter(consumed.topic, consumed.partition, message, error, attempt);
          return 'dead-lettered';
        }
        const delay = this.retryDelay(attempt);
        this.logger.warn(
          { eventId: consumed.id, attempt, delayMs: delay, transient, reason: errorText(error) },
          'event handler failed, retrying',
        );
        // Waiting is interrupted by shutdown: the record stays uncommitted and is delivered again.
        if (await this.sleepUnlessShutdown(delay)) return 'aborted';
        await heartbeat();
      }
    }
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    error: unknown,
    attempts: number,
  ): Promise<void> {
    const dlq = dlqTopicName(topic);
    const reason = errorText(error);
    this.logger.error({ dlq, offset: message.offset, partition, attempts, reason }, 'moving poison record to DLQ');
    await this.config.dlqProducer.sendRaw(dlq, [
      {
        key: message.key,
        value: message.value,
        // eslint-disable-next-line ipdata/no-spread-then-members -- a poison record, not the common path
        headers: {
          ...(message.headers ?? {}),
          dlq_error: reason,
          dlq_error_type: error instanceof Error ? error.name : typeof error,
          dlq_attempts: String(attempts),
          dlq_source_topic: topic,
          dlq_source_partition: String(partition),
          dlq_source_offset: message.offset,
          dlq_consumer_group: this.config.groupId,
          dlq_failed_at: new Date().toISOString(),
        },
      },
    ]);
    recordDeadLetter(this.config.groupId, topic);
  }
}
