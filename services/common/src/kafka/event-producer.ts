import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import type { Kafka, Message, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { UnavailableError } from '../errors/domain-errors.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { cloudEventHeaders } from './cloudevents.js';
import { kafkaAdapterProblems } from './kafka-adapter-check.js';
import { Murmur2Partitioner } from './murmur2-partitioner.js';
import type { EventWithMeta, TopicDefinition } from './topic-definition.js';
import { recordKafkaProduceError } from '../metrics/kafka-metrics.js';

export interface EventProducerConfig {
  kafka: Kafka;
  /** This service's name: the CloudEvents `ce_source` of everything it sends. */
  source: string;
  /** A send not acknowledged within this time fails with UnavailableError (default 30 s). */
  sendTimeoutMs?: number;
}

export interface SendOptions {
  /** The partitioning entity (account id, API key id, ...): events of one entity stay in order. */
  key: string;
  correlationId?: string;
}

/** The process's Kafka client against the tested one (kafka-adapter-check.ts), checked once. */
let adapterProblems: string[] | undefined;

/**
 * Typed producer (acks=all, retries): protobuf values, CloudEvents binary headers, W3C trace
 * context in headers. It never forwards an `authorization` header; it only writes the headers
 * it builds itself.
 *
 * Not idempotent (docs/adr/0002-kafka-client.md): kafkajs' idempotent producer takes a timed-out
 * request's sequence number back and gives it to the next batch, so after a broker froze past the
 * request timeout the broker acknowledged that next batch as a duplicate of the timed-out one
 * without writing it (test/kafka-outage.test.ts). A retry can now write a record twice; every
 * consumer de-duplicates by event id (EventConsumer's deduplicator, idempotent handlers).
 *
 * Not ready while the process runs another Kafka client than the one it was tested with
 * (`KafkaAdapterCheck`): every service registers a producer; the BFFs, whose producer is advisory,
 * register the check itself.
 */
export class EventProducer implements Component {
  readonly name = 'kafka-producer';
  private readonly producer: Producer;
  private connected = false;

  private constructor(
    private readonly config: EventProducerConfig,
    private readonly logger: Logger,
  ) {
    this.producer = config.kafka.producer({
      idempotent: false,
      // One request at a time per broker: a retried batch cannot overtake the next one.
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Murmur2 partitioning, the same key → partition mapping as the Java clients use.
      createPartitioner: Murmur2Partitioner,
      // Retries go on (a duplicate is de-duplicated downstream, a lost record is not); callers get
      // a bounded wait from sendTimeoutMs instead.
      retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 5_000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.connected = false;
    });
    this.producer.on(this.producer.events.CONNECT, () => {
      this.connected = true;
    });
  }

  static fromConfig(config: EventProducerConfig, logger: Logger): EventProducer {
    return new EventProducer(config, logger);
  }

  async start(): Promise<void> {
    adapterProblems ??= kafkaAdapterProblems();
    if (adapterProblems.length > 0) {
      this.logger.error({ problems: adapterProblems }, 'not the Kafka client the service was tested with: not ready');
    }
    await this.producer.connect();
    this.logger.info('Kafka producer connected');
  }

  async isReady(): Promise<boolean> {
    return this.connected && adapterProblems?.length === 0;
  }

  async shutdown(): Promise<void> {
    await this.producer.disconnect();
  }

  /**
   * Fills in the event's meta (id, source, time) where missing, sends it and returns the event
   * id. Resolves only once every in-sync replica has the record.
   */
  async send<T extends EventWithMeta>(topic: TopicDefinition<T>, event: T, options: SendOptions): Promise<string> {
    const [id] = await this.sendMany(topic, [{ event, ...options }]);
    return id as string;
  }

  async sendMany<T extends EventWithMeta>(
    topic: TopicDefinition<T>,
    events: ReadonlyArray<{ event: T } & SendOptions>,
  ): Promise<string[]> {
    const ids: string[] = [];
    const messages: Message[] = events.map(({ event, key, correlationId }) => {
      const meta = {
        id: event.meta?.id || randomUUID(),
        source: event.meta?.source || this.config.source,
        time: event.meta?.time ?? new Date(),
        correlationId: event.meta?.correlationId || correlationId || '',
      };
      ids.push(meta.id);
      const headers: Record<string, string> = cloudEventHeaders({
        id: meta.id,
        type: topic.eventType,
        source: meta.source,
        time: meta.time.toISOString(),
      });
      propagation.inject(context.active(), headers);
      return {
        key,
        value: Buffer.from(topic.codec.encode(Object.assign({}, event, { meta })).finish()),
        headers,
        timestamp: String(meta.time.getTime()),
      };
    });
    await this.sendWithTimeout(topic.name, messages);
    return ids;
  }

  /** Sends records as they are (used to move poison records to a DLQ). */
  async sendRaw(topic: string, messages: Message[]): Promise<void> {
    await this.sendWithTimeout(topic, messages);
  }

  private async sendWithTimeout(topic: string, messages: Message[]): Promise<void> {
    const timeoutMs = this.config.sendTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new UnavailableError(`Kafka did not acknowledge ${messages.length} record(s) on ${topic} within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.producer.send({ topic, acks: -1, messages }), timeout]);
    } catch (error) {
      recordKafkaProduceError(topic); // metrics hook (metrics/kafka-metrics.ts)
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
