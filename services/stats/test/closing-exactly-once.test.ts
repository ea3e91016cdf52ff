import { randomUUID } from 'node:crypto';
import { RollupGranularity, type UsageRollup } from '@ipdata/proto/events/v1/billing';
import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, MongoConnection, TOPICS, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { ManualClock, TopicRecorder, mongoUrlWithDatabase, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { MongoClosedRecords, MongoClosingUsage } from '../src/adapters/mongo/closed-rollups.store.js';
import { MongoClosingStateStore } from '../src/adapters/mongo/closing-state.store.js';
import { MongoCounterStore } from '../src/adapters/mongo/counter.store.js';
import { carriedKey } from '../src/closing/carry.js';
import { closingComponents, type ClosingComponents } from '../src/closing/closing.components.js';
import { InProcessClosingGate } from '../src/closing/closing-gate.js';
import type { ClosedRecords } from '../src/closing/closing-ports.js';
import { HourCloser } from '../src/closing/hour-closer.js';
import { dayStart, hourStart, type CounterDocDelta, type CounterIncrement } from '../src/counters/counter-delta.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const MIN = 60_000;
const DELAY = 5 * MIN;
const PUBLIC_API = UsageChannel.USAGE_CHANNEL_PUBLIC_API;
const JANUARY = new Date('2026-01-01T00:00:00.000Z');
/** A fresh account id (the topic is shared by every run of every test file). */
const accountId = (): string => randomUUID();
const at = (iso: string) => new Date(`2026-01-31T${iso}:00.000Z`);

/** One usage event as the ledger would count it: account, time, lookups, where it sits in the ledger. */
interface Counted {
  partition: number;
  offset: number;
  accountId: string;
  time: Date;
  count: number;
  channel?: UsageChannel;
}

/**
 * One closing test world: its own database (so its own closing state), the factory's
 * components, the real counter store writing usage_rollups as the ledger does, and a flag for
 * the ledger consumer's health.
 */
class World {
  readonly clock: ManualClock;
  readonly mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('stats_closing').replace(/-/g, '_')) },
    logger,
  );
  readonly rollupsName = 'usage_rollups';
  readonly counters = new MongoCounterStore(this.mongo.connection, () => this.rollupsName, logger);
  ledgerReady = true;
  parts!: ClosingComponents;

  /** The closer starts at `start` (its first boundary is that hour). */
  constructor(
    readonly producer: EventProducer,
    start: Date = at('21:10'),
  ) {
    this.clock = new ManualClock(start);
  }

  async start(): Promise<void> {
    await this.mongo.start();
    this.parts = closingComponents(
      {
        connection: this.mongo.connection,
        producer: this.producer,
        usageCollection: () => this.rollupsName,
        clock: this.clock,
        // Runs are driven by the test (runOnce), not by timers.
        config: { HOUR_CLOSE_DELAY_MS: DELAY, CLOSE_INTERVAL_MS: 3_600_000, LIVE_ROLLUP_INTERVAL_MS: 3_600_000 },
        isLedgerReady: () => this.ledgerReady,
      },
      logger,
    );
    for (const component of [this.parts.indexes, this.parts.closer, this.parts.relay]) await component.start();
  }

  async stop(): Promise<void> {
    await this.parts.relay.shutdown();
    await this.parts.closer.shutdown();
    await this.parts.livePublisher.shutdown();
    await this.mongo.connection.dropDatabase();
    await this.mongo.shutdown();
  }

  /** A ledger write round entered now: returns the boundary it saw and a function doing its writes and leaving. */
  enterRound(gate: InProcessClosingGate = this.parts.gate): { openFrom: Date; write(events: Counted[]): Promise<void> } {
    const round = gate.enter();
    return {
      openFrom: round.openFrom,
      write: async (events) => {
        try {
          await this.writeRound(events, round.openFrom);
        } finally {
          round.leave();
        }
      },
    };
  }

  round(events: Counted[]): Promise<void> {
    return this.enterRound().write(events);
  }

  /**
   * The usage fold's account documents (DESIGN-12 "usage_rollups", lead's decision on carries):
   * hour and day documents; a lookup of an hour before the round's boundary also counts as
   * `cr:<boundary>` in the same hour-document update.
   */
  private async writeRound(events: Counted[], openFrom: Date): Promise<void> {
    type Doc = { id: string; dims: CounterDocDelta['dims']; increments: CounterIncrement[] };
    const byPartition = new Map<number, Map<string, Doc>>();
    for (const event of events) {
      const docs = byPartition.get(event.partition) ?? new Map<string, Doc>();
      byPartition.set(event.partition, docs);
      const channel = event.channel ?? PUBLIC_API;
      const late = event.time < openFrom && channel === PUBLIC_API;
      for (const [g, start] of [
        ['h', hourStart(event.time)],
        ['d', dayStart(event.time)],
      ] as const) {
        const id = `${event.partition}|${event.accountId}|key-1|${channel}|${g}|${start.toISOString()}`;
        const doc: Doc = docs.get(id) ?? {
          id,
          dims: { accountId: event.accountId, apiKeyId: 'key-1', channel, g, periodStart: start },
          increments: [],
        };
        docs.set(id, doc);
        const inc: Record<string, number> = { lookups: event.count, requests: 1 };
        if (late && g === 'h') inc[carriedKey(openFrom)] = event.count;
        doc.increments.push({ offset: event.offset, inc });
      }
    }
    for (const [partition, docs] of byPartition) await this.counters.apply(partition, [...docs.values()]);
  }

  /** Σ lookups of the PUBLIC_API hour documents of these accounts (the rollups' truth). */
  async rollupLookups(accounts: readonly string[]): Promise<number> {
    const docs = await this.mongo.connection
      .collection(this.rollupsName)
      .find({ g: 'h', channel: PUBLIC_API, accountId: { $in: [...accounts] } })
      .toArray();
    return docs.reduce((sum, doc) => sum + Number((doc['c'] as Record<string, number>)['lookups'] ?? 0), 0);
  }

  closingState() {
    return new MongoClosingStateStore(this.mongo.connection).loadOrCreate(new Date(0));
  }
}

function hourId(accountId: string, hour: Date): string {
  return `rollup:h:${accountId}:${hour.toISOString()}`;
}

/** Whether a promise settled within a few event-loop turns (it is waiting on something otherwise). */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
}

describe('closing hours for billing: exactly once per (account, hour) and per (account, month)', () => {
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'stats-closing-test' }, logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'stats' }, logger);
  let recorder: TopicRecorder<UsageRollup>;
  const worlds: World[] = [];

  beforeAll(async () => {
    await ensureTopics(kafka, topicSpecs([TOPICS.usageRollup]), logger);
    await producer.start();
    recorder = await TopicRecorder.start(TOPICS.usageRollup, { kafka });
  });
  afterEach(async () => {
    for (const world of worlds.splice(0)) await world.stop();
  });
  afterAll(async () => {
    await recorder?.stop();
    await producer.shutdown();
  });

  async function world(start?: Date): Promise<World> {
    const created = new World(producer, start);
    worlds.push(created);
    await created.start();
    return created;
  }

  /** The closed rollups of these accounts on usage.rollup.v1, once `count` arrived. */
  async function closedOnTopic(accounts: readonly string[], count: number): Promise<UsageRollup[]> {
    const mine = () => recorder.events.filter((event) => accounts.includes(event.accountId) && event.closed);
    await waitFor(() => mine().length >= count, { what: `${count} closed rollups` });
    // Anything sent twice would be here by now too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return mine();
  }

  it('waits for rounds in flight, then closes; late lookups are billed in the open hour (Σ closed = Σ lookups)', async () => {
    const w = await world();
    const [a, b] = [accountId(), accountId()];
    // First start: the boundary is the current hour (21:00).
    expect(w.parts.gate.openFrom).toEqual(at('21:00'));
    await w.round([
      { partition: 0, offset: 1, accountId: a, time: at('21:05'), count: 10 },
      { partition: 1, offset: 1, accountId: b, time: at('21:06'), count: 7 },
      // Other channels are not billed.
      { partition: 1, offset: 2, accountId: b, time: at('21:07'), count: 50, channel: UsageChannel.USAGE_CHANNEL_WEB_EN },
    ]);
    // A round that entered with the 21:00 boundary and has not written yet.
    const inFlight = w.enterRound();

    w.clock.set(at('22:04'));
    await w.parts.closer.runOnce();
    expect((await w.closingState()).openFrom).toEqual(at('21:00')); // not due before 22:05

    w.clock.set(at('22:05'));
    const closing = w.parts.closer.runOnce();
    expect(await settledSoon(closing)).toBe(false);
    // (a) happened first: the boundary is persisted, the hour is not closed yet.
    expect(await w.closingState()).toEqual({ openFrom: at('22:00'), closedTo: at('21:00') });
    expect(w.parts.gate.openFrom).toEqual(at('22:00'));
    // Meanwhile a round of another partition, with the new boundary, counts a late lookup of
    // 21:00: carried to 22:00.
    await w.round([{ partition: 2, offset: 1, accountId: a, time: at('21:50'), count: 4 }]);
    expect(await settledSoon(closing)).toBe(false);

    await inFlight.write([{ partition: 0, offset: 2, accountId: a, time: at('21:30'), count: 3 }]);
    expect(await closing).toBe(1);
    expect(await w.closingState()).toEqual({ openFrom: at('22:00'), closedTo: at('22:00') });

    // The on-time round's record delivered again after the boundary moved (its offset commit
    // was lost): the watermark skips its whole update, so it is not carried a second time.
    await w.round([{ partition: 0, offset: 2, accountId: a, time: at('21:30'), count: 3 }]);
    await w.round([
      { partition: 0, offset: 3, accountId: a, time: at('22:10'), count: 5 },
      { partition: 1, offset: 3, accountId: b, time: at('20:59'), count: 2 }, // before the first hour ever closed: late too
    ]);
    w.clock.set(at('23:05'));
    expect(await w.parts.closer.runOnce()).toBe(1);

    const closed = await closedOnTopic([a, b], 4);
    const byHour = closed.map((event) => [event.accountId, event.periodStart?.toISOString(), event.lookups]);
    expect(byHour).toEqual(
      expect.arrayContaining([
        [a, at('21:00').toISOString(), 13],
        [b, at('21:00').toISOString(), 7],
        [a, at('22:00').toISOString(), 9],
        [b, at('22:00').toISOString(), 2],
      ]),
    );
    expect(closed).toHaveLength(4);
    for (const event of closed) {
      expect(event.granularity).toBe(RollupGranularity.ROLLUP_GRANULARITY_HOUR);
      expect(event.apiKeyId).toBe('');
      expect(recorder.withId(hourId(event.accountId, event.periodStart!))).toHaveLength(1);
    }
    const billed = closed.reduce((sum, event) => sum + event.lookups, 0);
    expect(billed).toBe(await w.rollupLookups([a, b]));
  });

  it('does not close while the ledger consumer is not consuming', async () => {
    const w = await world();
    w.ledgerReady = false;
    w.clock.set(at('23:30'));
    expect(await w.parts.closer.runOnce()).toBe(0);
    expect(await w.closingState()).toEqual({ openFrom: at('21:00'), closedTo: at('21:00') });
    w.ledgerReady = true;
    expect(await w.parts.closer.runOnce()).toBe(2);
  });

  it('publishes each (account, hour) once when closers die between steps or run twice at the same time', async () => {
    const w = await world();
    const accounts = [accountId(), accountId(), accountId()];
    await w.round(accounts.map((accountId, i) => ({ partition: i, offset: 1, accountId, time: at('21:20'), count: i + 1 })));
    w.clock.set(at('22:05'));

    // A closer that dies after inserting the first account's record, before its send.
    const records = new MongoClosedRecords(w.mongo.connection);
    let inserts = 0;
    const dying: ClosedRecords = {
      insertIfAbsent: async (record, now) => {
        if (inserts++ === 1) throw new Error('killed');
        return records.insertIfAbsent(record, now);
      },
      hourSums: (from, to) => records.hourSums(from, to),
    };
    const closerWith = (gate: InProcessClosingGate, closed: ClosedRecords, publish: boolean) =>
      new HourCloser(
        { closeDelayMs: DELAY, intervalMs: 3_600_000 },
        {
          gate,
          state: new MongoClosingStateStore(w.mongo.connection),
          usage: new MongoClosingUsage(w.mongo.connection, () => w.rollupsName),
          records: closed,
          publisher: publish ? w.parts.relay : { publishPending: async () => false },
          clock: w.clock,
          isLedgerReady: () => true,
        },
        logger,
      );
    const first = closerWith(new InProcessClosingGate(), dying, false);
    await first.start();
    await expect(first.runOnce()).rejects.toThrow('killed');
    await first.shutdown();
    expect(await w.closingState()).toEqual({ openFrom: at('22:00'), closedTo: at('21:00') });

    // Restarted twice at once (new process, and a zombie of the old one still running).
    const restarted = [0, 1].map(() => closerWith(new InProcessClosingGate(), records, true));
    for (const closer of restarted) await closer.start();
    await Promise.all(restarted.map((closer) => closer.runOnce()));
    for (const closer of restarted) await closer.shutdown();
    expect(await w.closingState()).toEqual({ openFrom: at('22:00'), closedTo: at('22:00') });

    // The first record was inserted by the dead closer and never sent: the relay sends it.
    w.clock.set(at('22:30'));
    await w.parts.relay.relayOnce();

    const closed = await closedOnTopic(accounts, 3);
    expect(closed.map((event) => [event.accountId, event.lookups]).sort()).toEqual(
      accounts.map((accountId, i) => [accountId, i + 1]).sort(),
    );
    for (const accountId of accounts) expect(recorder.withId(hourId(accountId, at('21:00')))).toHaveLength(1);
  });

  it("closes the month with the month's last hour: one MONTH record per account = Σ its closed hours", async () => {
    const w = await world();
    const [a, b] = [accountId(), accountId()];
    await w.round([
      { partition: 0, offset: 1, accountId: a, time: at('21:10'), count: 100 },
      { partition: 0, offset: 2, accountId: a, time: at('22:10'), count: 20 },
      { partition: 1, offset: 1, accountId: b, time: at('23:59'), count: 3 },
    ]);
    w.clock.set(new Date('2026-02-01T00:04:00.000Z'));
    expect(await w.parts.closer.runOnce()).toBe(2); // 21:00 and 22:00; 23:00 is not due yet
    expect(recorder.events.filter((event) => event.accountId === b && event.closed)).toEqual([]);

    // A lookup of January's last hour counted after it closed is February's (carried).
    w.clock.set(new Date('2026-02-01T00:05:00.000Z'));
    expect(await w.parts.closer.runOnce()).toBe(1);
    await w.round([{ partition: 1, offset: 2, accountId: b, time: at('23:58'), count: 1000 }]);
    // Running twice more changes nothing.
    await w.parts.closer.runOnce();
    await w.parts.closer.runOnce();

    const months = await waitFor(
      () => {
        const found = recorder.events.filter(
          (event) => [a, b].includes(event.accountId) && event.granularity === RollupGranularity.ROLLUP_GRANULARITY_MONTH,
        );
        return found.length >= 2 ? found : undefined;
      },
      { what: 'two closed months' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      recorder.events.filter(
        (event) => [a, b].includes(event.accountId) && event.granularity === RollupGranularity.ROLLUP_GRANULARITY_MONTH,
      ),
    ).toHaveLength(2);
    expect(months.map((event) => [event.accountId, event.periodStart, event.lookups, event.closed]).sort()).toEqual(
      [
        [a, JANUARY, 120, true],
        [b, JANUARY, 3, true],
      ].sort(),
    );
    for (const accountId of [a, b]) expect(recorder.withId(`rollup:m:${accountId}:${JANUARY.toISOString()}`)).toHaveLength(1);

    // The carried 1,000 are billed with February's first hour.
    w.clock.set(new Date('2026-02-01T01:05:00.000Z'));
    await w.parts.closer.runOnce();
    const february = await recorder.waitFor(
      (event) =>
        event.accountId === b &&
        event.granularity === RollupGranularity.ROLLUP_GRANULARITY_HOUR &&
        event.periodStart?.toISOString() === '2026-02-01T00:00:00.000Z',
    );
    expect(february.lookups).toBe(1000);
  });

  it('closes December at 00:05 on 1 January and bills its late lookups, up to a week old, in January’s first hour', async () => {
    const w = await world(new Date('2026-12-31T23:10:00.000Z'));
    const [a, b] = [accountId(), accountId()];
    const DECEMBER = new Date('2026-12-01T00:00:00.000Z');
    const NEW_YEAR = new Date('2027-01-01T00:00:00.000Z');
    expect(w.parts.gate.openFrom).toEqual(new Date('2026-12-31T23:00:00.000Z'));
    await w.round([
      { partition: 0, offset: 1, accountId: a, time: new Date('2026-12-31T23:20:00.000Z'), count: 10 },
      { partition: 1, offset: 1, accountId: b, time: new Date('2026-12-31T23:59:59.999Z'), count: 1 },
      { partition: 1, offset: 2, accountId: b, time: NEW_YEAR, count: 2 },
    ]);
    w.clock.set(new Date('2027-01-01T00:04:59.999Z'));
    expect(await w.parts.closer.runOnce()).toBe(0);
    w.clock.set(new Date('2027-01-01T00:05:00.000Z'));
    expect(await w.parts.closer.runOnce()).toBe(1);
    expect(await w.closingState()).toEqual({ openFrom: NEW_YEAR, closedTo: NEW_YEAR });

    const months = await waitFor(
      () => {
        const found = recorder.events.filter(
          (event) => [a, b].includes(event.accountId) && event.granularity === RollupGranularity.ROLLUP_GRANULARITY_MONTH,
        );
        return found.length >= 2 ? found : undefined;
      },
      { what: "December's two closed months" },
    );
    expect(months.map((event) => [event.accountId, event.periodStart, event.lookups, event.closed]).sort()).toEqual(
      [
        [a, DECEMBER, 10, true],
        [b, DECEMBER, 1, true],
      ].sort(),
    );

    // Late lookups counted after December closed: of its last hour, and of 25 December (inside the
    // closer's look-back of a week), both carried into 00:00 on 1 January.
    await w.round([
      { partition: 0, offset: 2, accountId: a, time: new Date('2026-12-31T23:58:00.000Z'), count: 100 },
      { partition: 2, offset: 1, accountId: a, time: new Date('2026-12-25T10:00:00.000Z'), count: 1000 },
    ]);
    w.clock.set(new Date('2027-01-01T01:05:00.000Z'));
    expect(await w.parts.closer.runOnce()).toBe(1);
    // Two months and four hours, each once.
    const closed = await closedOnTopic([a, b], 6);
    expect(closed).toHaveLength(6);
    const hours = closed.filter((event) => event.granularity === RollupGranularity.ROLLUP_GRANULARITY_HOUR);
    expect(hours.map((event) => [event.accountId, event.periodStart?.toISOString(), event.lookups]).sort()).toEqual(
      [
        [a, '2026-12-31T23:00:00.000Z', 10],
        [b, '2026-12-31T23:00:00.000Z', 1],
        [a, NEW_YEAR.toISOString(), 1100],
        [b, NEW_YEAR.toISOString(), 2],
      ].sort(),
    );
    // Every lookup is billed exactly once.
    expect(hours.reduce((sum, event) => sum + event.lookups, 0)).toBe(await w.rollupLookups([a, b]));
  });

  it('sends the running month total of accounts with new public API usage (closed = false)', async () => {
    const w = await world();
    const [a, b, quiet] = [accountId(), accountId(), accountId()];
    w.clock.set(at('21:40'));
    await w.round([
      { partition: 0, offset: 1, accountId: a, time: at('01:00'), count: 30 },
      { partition: 0, offset: 2, accountId: a, time: at('21:30'), count: 12 },
      { partition: 1, offset: 1, accountId: b, time: at('21:35'), count: 5 },
      { partition: 2, offset: 1, accountId: quiet, time: at('03:00'), count: 9 },
    ]);
    const counted = (accountId: string, channel = PUBLIC_API) => ({
      event: UsageEvent.fromPartial({ accountId, channel, count: 1 }),
      id: randomUUID(),
      time: at('21:35'),
      partition: 0,
      offset: 0,
    });

    // On start, accounts with usage in the current hour are dirty (a and b; not quiet).
    await w.parts.livePublisher.start();
    expect(await w.parts.livePublisher.runOnce()).toBe(2);
    // Later only what the ledger reports: a web lookup does not make an account dirty.
    w.parts.onCounted([counted(b), counted(quiet, UsageChannel.USAGE_CHANNEL_WEB_EN)]);
    expect(await w.parts.livePublisher.runOnce()).toBe(1);
    expect(await w.parts.livePublisher.runOnce()).toBe(0);

    const running = await waitFor(
      () => {
        const found = recorder.events.filter((event) => [a, b, quiet].includes(event.accountId));
        return found.length >= 3 ? found : undefined;
      },
      { what: 'three running totals' },
    );
    expect(running.map((event) => [event.accountId, event.lookups, event.closed, event.granularity, event.periodStart])).toEqual(
      expect.arrayContaining([
        [a, 42, false, RollupGranularity.ROLLUP_GRANULARITY_MONTH, JANUARY],
        [b, 5, false, RollupGranularity.ROLLUP_GRANULARITY_MONTH, JANUARY],
      ]),
    );
    expect(running.filter((event) => event.accountId === quiet)).toEqual([]);
  });
});
