import type { Kafka, Message, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { Component } from '@ipdata/common';
import { Murmur2Partitioner, UnavailableError, errorText } from '@ipdata/common/worker';
import { frameCount } from '../../usage/usage-event-frames.js';
import { usageRecordBatches, type PartitionRecordBatch } from '../../usage/usage-record-batches.js';
import type { UsageEventSink, UsageKafkaRecord } from '../../usage/usage.ports.js';

export interface UsageKafkaSinkConfig {
  kafka: Kafka;
  /** A send not acknowledged within this time fails and the ledger tries again (default 15 s). */
  sendTimeoutMs?: number;
}

/**
 * The usage ledger's own Kafka producer: acks=all, one request in flight (journal order kept),
 * and deliberately NOT idempotent, unlike common's EventProducer. Measured on the test stack
 * (services/bff-en/test/usage-ledger.test.ts): after a broker outage longer than the send
 * timeout, the send kafkajs still retries internally and the ledger's re-send of the same batch
 * leave kafkajs' idempotent producer with diverged sequence numbers; every later send fails with
 * "The broker received an out of order sequence number" until the process restarts. The ledger
 * needs no broker-side idempotence: events carry their request id and consumers de-duplicate on
 * it, so a re-send is harmless and a wedged producer is not.
 *
 * It connects on first use and again after a failure, so bff-en starts and answers while Kafka
 * is down (the ledger keeps the events), and it does not feed /readyz for the same reason.
 */
export class UsageKafkaSink implements UsageEventSink, Component {
  readonly name = 'usage-kafka-sink';
  private readonly producer: Producer;
  private connecting: Promise<void> | undefined;
  private connected = false;
  private closed = false;

  private constructor(
    private readonly config: UsageKafkaSinkConfig,
    private readonly logger: Logger,
  ) {
    this.producer = config.kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Murmur2, the same key → partition mapping as EventProducer and the Java clients.
      createPartitioner: Murmur2Partitioner,
      // Bounded: a failed send comes back to the ledger, which backs off and re-sends the batch.
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.connected = false;
    });
  }

  static fromConfig(config: UsageKafkaSinkConfig, logger: Logger): UsageKafkaSink {
    return new UsageKafkaSink(config, logger.child({ module: 'usage-kafka-sink' }));
  }

  async start(): Promise<void> {
    // Connecting now saves the first batch a round trip; failing now must not stop the service.
    this.ensureConnected().catch((error: unknown) =>
      this.logger.warn({ error: errorText(error) }, 'Kafka not reachable at start; usage events wait in the journal'),
    );
  }

  /**
   * The ledger's batch as one record batch per partition (usageRecordBatches), written once
   * kafkajs knows the topic's partition count: the patched kafkajs asks the message for them when
   * it groups messages per partition, on every attempt (patches/kafkajs+2.2.4.patch). kafkajs may
   * still read `frames` after a timed-out send was given up: the worker passes a copy of its own.
   */
  sendEvents(topic: string, eventType: string, frames: Uint8Array): Promise<void> {
    const batches: RecordBatchesMessage = {
      value: null,
      recordBatches: (partitionCount) => usageRecordBatches(frames, eventType, partitionCount),
    };
    return this.send(topic, [batches], () => `${frameCount(frames)} usage record(s)`);
  }

  /** Records as objects, encoded by kafkajs (the benchmark's baseline, scripts/bench/usage-kafka-records.bench.ts). */
  sendRaw(topic: string, records: UsageKafkaRecord[]): Promise<void> {
    return this.send(topic, records, () => `${records.length} usage record(s)`);
  }

  private async send(topic: string, messages: Message[], what: () => string): Promise<void> {
    if (this.closed) throw new UnavailableError('usage Kafka sink is shut down');
    await this.ensureConnected();
    const timeoutMs = this.config.sendTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UnavailableError(`Kafka did not acknowledge ${what()} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.producer.send({ topic, acks: -1, messages }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    await this.producer.disconnect();
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

/** A message standing for whole record batches, one per partition (patches/kafkajs+2.2.4.patch). */
interface RecordBatchesMessage extends Message {
  recordBatches(partitionCount: number): PartitionRecordBatch[];
}
