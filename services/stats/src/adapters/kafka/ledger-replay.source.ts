import type { Admin, Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import {
  headersToStrings,
  readCloudEventAttributes,
  topicEndOffsets,
  type ConsumedEvent,
  type TopicDefinition,
} from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { LedgerOffsets, LedgerReplaySource, ReplayBatchHandler, ReplayReader } from '../../replay/replay-ports.js';

export interface KafkaLedgerReplayConfig {
  kafka: Kafka;
  topic: TopicDefinition<UsageEvent>;
  /** Prefix of the replay consumer groups: `<prefix>.replay-<id>` (one per replay, never committed to). */
  groupPrefix: string;
  /** Records per handler call (the live LEDGER_BATCH_MAX). */
  chunkSize: number;
}

async function withAdmin<R>(kafka: Kafka, work: (admin: Admin) => Promise<R>): Promise<R> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** A consumer group's committed offsets of a topic (the live ledger's position); partitions without one are absent. */
export function committedLedgerOffsets(kafka: Kafka, groupId: string, topic: string): Promise<Map<number, number>> {
  return withAdmin(kafka, async (admin) => {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map(
      (offsets?.partitions ?? []).filter((row) => Number(row.offset) >= 0).map((row) => [row.partition, Number(row.offset)]),
    );
  });
}

/** The ledger topic for replays: offsets from the broker, records through a consumer of its own. */
export class KafkaLedgerReplaySource implements LedgerReplaySource {
  constructor(
    private readonly config: KafkaLedgerReplayConfig,
    private readonly logger: Logger,
  ) {}

  async earliestOffsets(): Promise<Map<number, number>> {
    const offsets = await topicEndOffsets(this.config.kafka, this.config.topic.name);
    return new Map(offsets.map((row) => [row.partition, Number(row.low)]));
  }

  offsetsAtTime(time: Date): Promise<Map<number, number>> {
    // kafkajs answers the high watermark for a partition without a record at or after `time`.
    return withAdmin(this.config.kafka, async (admin) => {
      const offsets = await admin.fetchTopicOffsetsByTimestamp(this.config.topic.name, time.getTime());
      return new Map(offsets.map((row) => [row.partition, Number(row.offset)]));
    });
  }

  async open(replayId: string, start: LedgerOffsets, handler: ReplayBatchHandler): Promise<ReplayReader> {
    const reader = new KafkaReplayReader(this.config, start, handler, this.logger.child({ replay: replayId }));
    await reader.start(`${this.config.groupPrefix}.replay-${replayId}`);
    return reader;
  }
}

/**
 * One replay's consumer. Every partition is paused once it reached its target, so the consumer
 * does not spin re-fetching records it must not read yet; readUpTo() resumes the ones below their
 * new targets. Offsets are never committed: a replay that stops is started again from its start.
 */
class KafkaReplayReader implements ReplayReader {
  private consumer: Consumer | undefined;
  private readonly next: Map<number, number>;
  private targets: Map<number, number>;
  private read = 0;
  private failure: Error | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly config: KafkaLedgerReplayConfig,
    start: LedgerOffsets,
    private readonly handler: ReplayBatchHandler,
    private readonly logger: Logger,
  ) {
    this.next = new Map(start);
    this.targets = new Map(start);
  }

  async start(groupId: string): Promise<void> {
    const consumer = this.config.kafka.consumer({ groupId, allowAutoTopicCreation: false, sessionTimeout: 30_000 });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, (event) => {
      this.failure = event.payload.error;
      this.wake();
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [this.config.topic.name], fromBeginning: true });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => this.onBatch(payload) });
    const topic = this.config.topic.name;
    // Everything is paused until readUpTo() names targets; seeks apply once the partitions are assigned.
    // Partitions are named: kafkajs forgets a topic-wide pause when one partition is paused later.
    consumer.pause([{ topic, partitions: [...this.next.keys()] }]);
    for (const [partition, offset] of this.next) consumer.seek({ topic, partition, offset: String(offset) });
  }

  positions(): LedgerOffsets {
    return this.next;
  }

  recordsRead(): number {
    return this.read;
  }

  async readUpTo(targets: LedgerOffsets): Promise<void> {
    const topic = this.config.topic.name;
    for (const [partition, target] of targets) this.targets.set(partition, Math.max(target, this.targets.get(partition) ?? 0));
    const behind = [...this.targets]
      .filter(([partition, target]) => (this.next.get(partition) ?? target) < target)
      .map(([partition]) => partition);
    if (behind.length > 0) this.consumer?.resume([{ topic, partitions: behind }]);
    while (!this.done()) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.failure) throw this.failure;
  }

  /** Stops reading; a readUpTo() still waiting fails (the replay then fails and leaves the live generation). */
  async close(): Promise<void> {
    this.failure ??= new Error('the replay reader was closed');
    this.wake();
    await this.consumer?.disconnect();
  }

  private done(): boolean {
    for (const [partition, target] of this.targets) if ((this.next.get(partition) ?? target) < target) return false;
    return true;
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const partition = batch.partition;
    const topic = batch.topic;
    try {
      let chunk: KafkaMessage[] = [];
      const flush = async () => {
        if (chunk.length === 0) return;
        const last = chunk[chunk.length - 1]!.offset;
        const events = chunk.flatMap((message) => this.decode(topic, partition, message));
        if (events.length > 0) await this.handler({ topic, partition, events, heartbeat: () => payload.heartbeat() });
        this.read += chunk.length;
        this.next.set(partition, Number(last) + 1);
        payload.resolveOffset(last);
        await payload.heartbeat();
        chunk = [];
      };
      for (const message of batch.messages) {
        if (!payload.isRunning() || payload.isStale()) break;
        const offset = Number(message.offset);
        if (offset < (this.next.get(partition) ?? 0)) continue; // before the start (a fetch ahead of the seek)
        if (offset >= (this.targets.get(partition) ?? 0)) break;
        chunk.push(message);
        if (chunk.length >= this.config.chunkSize) await flush();
      }
      await flush();
      if ((this.next.get(partition) ?? 0) >= (this.targets.get(partition) ?? 0))
        this.consumer?.pause([{ topic, partitions: [partition] }]);
    } catch (error) {
      // The live consumer retries; a replay fails as a whole and is started again.
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.consumer?.pause([{ topic, partitions: [...this.next.keys()] }]);
      throw error;
    } finally {
      this.wake();
    }
  }

  /** The live consumer sent undecodable records to the DLQ; the replay skips them the same way. */
  private decode(topic: string, partition: number, message: KafkaMessage): ConsumedEvent<UsageEvent>[] {
    try {
      const headers = headersToStrings(message.headers);
      const attributes = readCloudEventAttributes(headers);
      if (attributes.type !== this.config.topic.eventType || message.value === null) return [];
      const event = this.config.topic.codec.decode(message.value);
      return [{ event, ...attributes, key: message.key?.toString() ?? null, topic, partition, offset: message.offset, headers }];
    } catch (error) {
      this.logger.debug({ partition, offset: message.offset, reason: String(error) }, 'replay skips an undecodable record');
      return [];
    }
  }
}
