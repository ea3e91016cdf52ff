import type { Kafka, Message, Producer } from 'kafkajs';
import {
  Murmur2Partitioner,
  TOPICS,
  UnavailableError,
  cloudEventHeaders,
  errorText,
  type Component,
  type Logger,
  type TopicDefinition,
} from '@ipdata/common';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { usageEventKey } from '../../ledger/usage-record.js';
import type { UsageEventSink } from '../../ledger/usage.ports.js';

export interface UsageKafkaSinkConfig {
  kafka: Kafka;
  /** Default TOPICS.usageLookup; tests pass a topic of their own. */
  topic?: TopicDefinition<UsageEvent>;
  /** A send not acknowledged within this time fails, and the relay sends it again (default 15 s). */
  sendTimeoutMs?: number;
}

/**
 * usage.lookup.v1 through kafkajs as published: one message per event (key, value, CloudEvents
 * headers, timestamp), acks=all, one request in flight. Deliberately NOT idempotent, unlike
 * common's EventProducer: events carry their request id and consumers de-duplicate on it, so a
 * re-send after a timeout is harmless, while kafkajs' idempotent producer was seen to wedge on
 * diverged sequence numbers after a broker outage (docs/adr/0001-usage-ledger-durability.md).
 *
 * It connects on first use and again after a failure, so a service starts and answers while
 * Kafka is down (the events wait in the stream).
 */
export class UsageKafkaSink implements UsageEventSink, Component {
  readonly name = 'usage-kafka-sink';
  private readonly producer: Producer;
  private readonly topic: TopicDefinition<UsageEvent>;
  private connecting: Promise<void> | undefined;
  private connected = false;
  private closed = false;

  constructor(
    private readonly config: UsageKafkaSinkConfig,
    private readonly logger: Logger,
  ) {
    this.topic = config.topic ?? TOPICS.usageLookup;
    this.producer = config.kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Murmur2, the same key → partition mapping as EventProducer and the Java clients.
      createPartitioner: Murmur2Partitioner,
      // Bounded: a failed send comes back to the relay, which backs off and sends the groups again.
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.connected = false;
    });
  }

  async start(): Promise<void> {
    // Connecting now saves the first send a round trip; failing now must not stop the service.
    this.ensureConnected().catch((error: unknown) =>
      this.logger.warn({ error: errorText(error) }, 'Kafka not reachable at start; usage events wait in the stream'),
    );
  }

  async send(events: readonly Uint8Array[]): Promise<void> {
    if (events.length === 0) return;
    if (this.closed) throw new UnavailableError('usage Kafka sink is shut down');
    const messages = events.map((bytes) => this.messageOf(bytes));
    await this.ensureConnected();
    const timeoutMs = this.config.sendTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UnavailableError(`Kafka did not acknowledge ${events.length} usage event(s) within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.producer.send({ topic: this.topic.name, acks: -1, messages }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    await this.producer.disconnect();
  }

  private messageOf(bytes: Uint8Array): Message {
    const event = UsageEvent.decode(bytes);
    const meta = event.meta;
    const time = meta?.time ?? new Date(0);
    return {
      key: usageEventKey(event),
      value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      headers: cloudEventHeaders({
        id: meta?.id ?? '',
        type: this.topic.eventType,
        source: meta?.source ?? '',
        time: time.toISOString(),
      }),
      timestamp: String(time.getTime()),
    };
  }

  private ensureConnected(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.connecting ??= this.producer
      .connect()
      .then(() => {
        this.connected = true;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }
}
