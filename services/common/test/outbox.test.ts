import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { Schema, type Model } from 'mongoose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventProducer,
  MongoConnection,
  OutboxRelay,
  PENDING_EVENTS_INDEX,
  createKafka,
  ensureTopics,
  outboxEvent,
  outboxUpdate,
  pendingEventsField,
  readCloudEventAttributes,
  topicSpecs,
  type OutboxEvent,
  type OutboxRelayConfig,
} from '@ipdata/common';
import { ManualClock, TopicRecorder, mongoUrlWithDatabase, stackAddresses, uniqueName } from '@ipdata/common/testing';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const STALE_AFTER_MS = 10_000;

interface Widget {
  _id: string;
  name: string;
  pendingEvents: OutboxEvent[];
}

const widgetSchema = new Schema<Widget>(
  { _id: { type: String, required: true }, name: { type: String, required: true }, ...pendingEventsField },
  { versionKey: false },
);
widgetSchema.index(PENDING_EVENTS_INDEX);

function usage(endpoint: string): UsageEvent {
  return UsageEvent.fromPartial({ channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API, apiKeyId: 'key-1', endpoint, count: 1 });
}

describe('outbox: events stored with their document, published by OutboxRelay (FerretDB + Kafka)', () => {
  const topic = usageTestTopic(uniqueName('test.outbox'));
  const clock = new ManualClock(new Date('2026-11-01T00:00:00Z'));
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('outbox_test').replace(/-/g, '_')) },
    logger,
  );
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'outbox-test' }, logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'outbox-test' }, logger);
  // A broker nobody listens on: every send fails, as with Kafka down.
  const downProducer = EventProducer.fromConfig(
    {
      kafka: createKafka({ brokers: ['127.0.0.1:1'], clientId: 'outbox-test-down' }, logger),
      source: 'outbox-test',
      sendTimeoutMs: 1_000,
    },
    logger,
  );
  let widgets: Model<Widget>;
  let recorder: TopicRecorder<UsageEvent>;

  const relay = (over: EventProducer = producer, beforeSend?: OutboxRelayConfig['beforeSend']) =>
    OutboxRelay.fromConfig(
      {
        name: 'widgets-outbox',
        collection: widgets.collection,
        producer: over,
        topics: [topic],
        staleAfterMs: STALE_AFTER_MS,
        clock,
        beforeSend,
      },
      logger,
    );

  /** The real producer, noting in `log` which event ids each send carried before it goes to Kafka. */
  function loggingProducer(log: string[]): EventProducer {
    return {
      sendMany: (...args: Parameters<EventProducer['sendMany']>) => {
        log.push(`send ${args[1].map(({ event }) => event.meta?.id).join(',')}`);
        return producer.sendMany(...args);
      },
    } as unknown as EventProducer;
  }

  /** A state change and its event in one single-document write, as a repository does it. */
  async function rename(id: string, name: string): Promise<OutboxEvent> {
    const event = outboxEvent(topic, usage(`rename:${name}`), { key: id, now: clock.now() });
    await widgets.updateOne({ _id: id }, { $set: { name }, ...outboxUpdate([event]) }, { upsert: true });
    return event;
  }

  async function pendingIds(id: string): Promise<string[]> {
    const doc = await widgets.findById(id).lean();
    return (doc?.pendingEvents ?? []).map((event) => event.id);
  }

  beforeAll(async () => {
    await mongo.start();
    widgets = mongo.connection.model<Widget>('Widget', widgetSchema);
    await widgets.createIndexes();
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    await producer.start();
    recorder = await TopicRecorder.start(topic, { kafka });
  });

  afterAll(async () => {
    await recorder.stop();
    await producer.shutdown();
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  });

  it('publishes an event written with its document right after the write, then removes it', async () => {
    const id = uniqueName('w');
    const event = await rename(id, 'first');
    expect(await widgets.findById(id).lean()).toMatchObject({ name: 'first', pendingEvents: [{ id: event.id, key: id }] });

    expect(await relay().publishPending(id)).toBe(true);

    const record = await recorder.waitForRecord((r) => r.event.meta?.id === event.id);
    expect(record.key).toBe(id);
    expect(record.event.endpoint).toBe('rename:first');
    expect(record.event.meta?.time?.toISOString()).toBe(clock.now().toISOString());
    expect(readCloudEventAttributes(record.headers)).toMatchObject({ id: event.id, source: 'outbox-test' });
    expect(await pendingIds(id)).toEqual([]);
  });

  it('keeps the event while Kafka is down and the relay publishes it once it is stale', async () => {
    const id = uniqueName('w');
    const event = await rename(id, 'while-down');

    expect(await relay(downProducer).publishPending(id)).toBe(false);
    await expect(relay(downProducer).relayOnce()).resolves.toEqual({ documents: 0, events: 0 }); // not stale yet
    clock.advance(STALE_AFTER_MS);
    await expect(relay(downProducer).relayOnce()).rejects.toThrow(/Kafka did not acknowledge/);
    expect(await pendingIds(id)).toEqual([event.id]);

    // Kafka is back: the periodic run (as the lifecycle schedules it) sends it.
    const result = await relay().relayOnce();
    expect(result.events).toBeGreaterThanOrEqual(1);
    await recorder.waitFor((e) => e.meta?.id === event.id);
    expect(await pendingIds(id)).toEqual([]);
  });

  it('loses nothing when the process dies between the write and the publish', async () => {
    const id = uniqueName('w');
    // The "crash": the write happened, publishPending never ran.
    const event = await rename(id, 'before-crash');

    // A new process: its relay finds the event once it is older than the threshold.
    const restarted = relay();
    await restarted.start();
    try {
      clock.advance(STALE_AFTER_MS + 1);
      await restarted.runNow();
    } finally {
      await restarted.shutdown();
    }
    await recorder.waitFor((e) => e.meta?.id === event.id);
    expect(await pendingIds(id)).toEqual([]);
    expect(recorder.withId(event.id)).toHaveLength(1);
  });

  it('keeps the order of one document across writes and concurrent senders; duplicates carry the same id', async () => {
    const id = uniqueName('w');
    const written: OutboxEvent[] = [];
    written.push(await rename(id, 'a'));
    expect(await relay(downProducer).publishPending(id)).toBe(false);
    written.push(await rename(id, 'b'));
    written.push(await rename(id, 'c'));
    expect(await pendingIds(id)).toEqual(written.map((event) => event.id));

    // The writer and the relay (another replica) send at the same time.
    clock.advance(STALE_AFTER_MS);
    const [writerDone] = await Promise.all([relay().publishPending(id), relay().relayOnce()]);
    expect(writerDone).toBe(true);
    await recorder.waitFor((e) => e.meta?.id === written[2]!.id);
    expect(await pendingIds(id)).toEqual([]);

    const mine = recorder.records.filter((record) => record.key === id);
    const firstSeen = [...new Set(mine.map((record) => record.event.meta?.id))];
    expect(firstSeen).toEqual(written.map((event) => event.id));
    const firstRecords = firstSeen.map((eventId) => mine.find((record) => record.event.meta?.id === eventId)!);
    expect(firstRecords.map((record) => record.event.endpoint)).toEqual(['rename:a', 'rename:b', 'rename:c']);
  });

  it('removes only acknowledged events: one written while the send is in flight stays for the next send', async () => {
    const id = uniqueName('w');
    const first = await rename(id, 'one');
    let second: OutboxEvent | undefined;
    // The next write of the same document lands after the relay read it, before Kafka answered.
    const slowProducer = {
      sendMany: async (...args: Parameters<EventProducer['sendMany']>) => {
        second ??= await rename(id, 'two');
        return producer.sendMany(...args);
      },
    } as unknown as EventProducer;

    expect(await relay(slowProducer).publishPending(id)).toBe(true);
    expect(await pendingIds(id)).toEqual([second!.id]);
    expect(recorder.withId(second!.id)).toEqual([]);

    expect(await relay().publishPending(id)).toBe(true);
    await recorder.waitFor((e) => e.meta?.id === second!.id);
    expect(recorder.withId(first.id)).toHaveLength(1);
    expect(await pendingIds(id)).toEqual([]);
  });

  it('stores an attachment with the event and hands it to beforeSend before Kafka gets the event', async () => {
    const id = uniqueName('w');
    const effectiveAt = new Date('2026-11-02T10:00:00Z');
    const attachment = { orderId: 'order-1', priceMinor: 4900, effectiveAt, lines: [{ sku: 'PRO', n: 2 }] };
    const first = outboxEvent(topic, usage('attach:1'), { key: id, now: clock.now(), attachment });
    const second = outboxEvent(topic, usage('attach:2'), { key: id, now: clock.now() });
    await widgets.updateOne({ _id: id }, { $set: { name: 'attached' }, ...outboxUpdate([first, second]) }, { upsert: true });
    const stored = await widgets.findById(id).lean();
    expect(stored?.pendingEvents[0]?.attachment).toEqual(attachment);
    expect(stored?.pendingEvents[1]).not.toHaveProperty('attachment');

    const log: string[] = [];
    const seen: OutboxEvent[][] = [];
    const beforeSend = async (entries: readonly OutboxEvent[]) => {
      seen.push([...entries]);
      log.push(`beforeSend ${entries.map((entry) => entry.id).join(',')}`);
    };
    expect(await relay(loggingProducer(log), beforeSend).publishPending(id)).toBe(true);

    const ids = `${first.id},${second.id}`;
    expect(log).toEqual([`beforeSend ${ids}`, `send ${ids}`]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map(({ id: eventId, key, attachment: a }) => ({ id: eventId, key, attachment: a }))).toEqual([
      { id: first.id, key: id, attachment },
      { id: second.id, key: id, attachment: undefined },
    ]);
    expect(seen[0]![0]!.attachment!['effectiveAt']).toBeInstanceOf(Date);
    expect(Buffer.isBuffer(seen[0]![0]!.value)).toBe(true);
    expect(seen[0]![0]!.value.equals(first.value)).toBe(true);

    const record = await recorder.waitForRecord((r) => r.event.meta?.id === first.id);
    expect(record.event.endpoint).toBe('attach:1');
    await recorder.waitFor((e) => e.meta?.id === second.id);
    expect(await pendingIds(id)).toEqual([]);
  });

  it('runs beforeSend on relay runs too; when it throws the events stay pending and a later run sends them', async () => {
    const id = uniqueName('w');
    const event = outboxEvent(topic, usage('history:1'), { key: id, now: clock.now(), attachment: { revision: 7 } });
    await widgets.updateOne({ _id: id }, { $set: { name: 'history' }, ...outboxUpdate([event]) }, { upsert: true });

    const log: string[] = [];
    let failures = 0;
    const failing = async () => {
      failures += 1;
      throw new Error('history store unavailable');
    };
    expect(await relay(loggingProducer(log), failing).publishPending(id)).toBe(false);
    clock.advance(STALE_AFTER_MS);
    // The relay logs it and goes on; the event waits for the next run.
    await expect(relay(loggingProducer(log), failing).relayOnce()).resolves.toEqual({ documents: 0, events: 0 });
    expect(failures).toBe(2);
    expect(log).toEqual([]);
    expect(await pendingIds(id)).toEqual([event.id]);
    expect(recorder.withId(event.id)).toEqual([]);

    const recorded: Array<Record<string, unknown> | undefined> = [];
    const result = await relay(loggingProducer(log), async (entries) => {
      recorded.push(...entries.map((entry) => entry.attachment));
      log.push(`beforeSend ${entries.map((entry) => entry.id).join(',')}`);
    }).relayOnce();
    expect(result).toEqual({ documents: 1, events: 1 });
    expect(recorded).toEqual([{ revision: 7 }]);
    expect(log).toEqual([`beforeSend ${event.id}`, `send ${event.id}`]);
    await recorder.waitFor((e) => e.meta?.id === event.id);
    expect(await pendingIds(id)).toEqual([]);
  });
});
