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

export interface EventConsumerConfig<T extends EventWithMeta> {
  kafka: Kafka;
  /** Consumer group = the consuming service's name (TOPICS.md). */
  groupId: string;
  topic: TopicDefinition<T>;
  handler: EventHandler<T>;
  /** Producer used to move poison records to `<topic>.dlq`. */
  dlqProducer: EventProducer;
  deduplicator?: EventDeduplicator;
  /** Attempts for a failing handler before the record goes to the DLQ (transient errors retry until shutdown). */
  maxAttempts?: number;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Commit after this many handled records even inside a large batch. */
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
 */
export class EventConsumer<T extends EventWithMeta> implements Component {
  readonly name: string;
  private readonly consumer: Consumer;
  private readonly abort = new AbortController();
  private joined = false;
  private crashed = false;

  private constructor(
    private readonly config: EventConsumerConfig<T>,
    private readonly logger: Logger,
  ) {
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
    await this.consumer.subscribe({ topics: [this.config.topic.name], fromBeginning: true });
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
    return this.joined && !this.crashed;
  }

  async shutdown(): Promise<void> {
    this.abort.abort();
    // disconnect() waits for the batch in hand; processBatch commits what it handled before returning.
    await this.consumer.disconnect();
    this.logger.info('consumer stopped');
  }

  private async processBatch(payload: EachBatchPayload): Promise<void> {
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
        if (!payload.isRunning() || payload.isStale() || this.abort.signal.aborted) break;
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
    const initialDelay = this.config.initialRetryDelayMs ?? 200;
    const maxDelay = this.config.maxRetryDelayMs ?? 10_000;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.config.handler(consumed);
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
        const delay = backoffDelay(attempt, initialDelay, maxDelay);
        this.logger.warn(
          { eventId: consumed.id, attempt, delayMs: delay, transient, reason: errorText(error) },
          'event handler failed, retrying',
        );
        // Waiting is interrupted by shutdown: the record stays uncommitted and is delivered again.
        const aborted = await sleep(delay, false, { signal: this.abort.signal }).catch(() => true);
        if (aborted) return 'aborted';
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
  }
}
