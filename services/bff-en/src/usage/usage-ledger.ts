import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  TOPICS,
  UnavailableError,
  errorText,
  systemClock,
  type Clock,
  type Component,
  type TopicDefinition,
} from '@ipdata/common';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { Logger } from 'pino';
import { DirectoryLock } from './directory-lock.js';
import { FRAME_HEADER_BYTES, SegmentJournal, sealFrame, type JournalCursor, type Segment } from './segment-journal.js';
import { encodeUsageRecord, maxEncodedBytes } from './usage-event.codec.js';
import { FramesBufferPool, UsageEventFrames } from './usage-event-frames.js';
import { recordOverheadBytes } from './usage-record-batches.js';
import type { UsageRecord } from './usage-record.js';
import type { UsageEventSink } from './usage.ports.js';

export interface UsageLedgerConfig {
  /** The journal's directory; one process at a time (locked with `ledger.lock`). */
  dir: string;
  producer: UsageEventSink;
  /** CloudEvents source (`meta.source`), e.g. 'bff-en'. */
  source: string;
  /** Default TOPICS.usageLookup; tests pass a topic of their own. */
  topic?: TopicDefinition<UsageEvent>;
  /** Most events held in memory for sending (default 50,000); beyond it they wait only in the journal. */
  memoryLimit?: number;
  /** Most events per send (default 500). */
  batchSize?: number;
  /**
   * Most bytes of records per send (default 900 KiB): under the broker's 1-MiB record batch limit
   * (`message.max.bytes`) even when every event of a send has the same key, so one partition.
   * The broker refuses a larger batch for good, and the ledger would retry it forever.
   */
  maxSendBytes?: number;
  /** How long a lone event waits for company before it is sent (default 20 ms). */
  lingerMs?: number;
  /** A segment file is sealed and a new one started at this size (default 8 MiB). */
  segmentBytes?: number;
  /** How long shutdown() keeps sending before it leaves the rest in the journal (default 10 s). */
  drainTimeoutMs?: number;
  clock?: Clock;
}

export interface UsageLedgerStats {
  /** Events in memory waiting for Kafka (including the batch in flight). */
  buffered: number;
  /** True while newer events wait only in the journal (memory full, or an earlier run's backlog). */
  spilled: boolean;
  /** Events journalled by record() since start. */
  journalled: number;
  /** Events read back from journal files (an earlier run's, or spilled ones). */
  readBack: number;
  /** Events Kafka acknowledged since start. */
  sent: number;
  sendFailures: number;
  /** The last send failure since the last acknowledgement, for /readyz details and logs. */
  lastSendError: string | undefined;
  journalBytes: number;
  segments: number;
  lastAckAt: Date | undefined;
}

const MAX_BACKOFF_MS = 5_000;
const FAILURE_LOG_INTERVAL_MS = 30_000;

/**
 * The usage ledger of an API process (README.md, "The usage ledger"): record() writes the event ahead to a
 * journal before it returns, so an answered request's event survives the process being killed;
 * a background loop sends journalled events to Kafka in order, in batches, and a journal segment
 * is deleted only when Kafka acknowledged all of it. Kafka down: events wait in memory up to
 * `memoryLimit`, then only in the journal, and go out in order when it is back.
 */
export class UsageLedger implements Component {
  readonly name = 'usage-ledger';
  private readonly topic: TopicDefinition<UsageEvent>;
  private readonly memoryLimit: number;
  private readonly batchSize: number;
  private readonly maxSendBytes: number;
  private readonly recordOverhead: number;
  private readonly lingerMs: number;
  private readonly segmentBytes: number;
  private readonly drainTimeoutMs: number;
  private readonly clock: Clock;

  private lock: DirectoryLock | undefined;
  private journal: SegmentJournal | undefined;
  /** Full batches waiting to be sent, oldest first; then the batch filling up. */
  private readonly sealed: UsageEventFrames[] = [];
  private open: UsageEventFrames | undefined;
  /** The batches' buffers, reused once acknowledged. */
  private readonly framesPool = new FramesBufferPool();
  /** Events in `sealed` and `open`. */
  private inMemory = 0;
  /** Set while newer events are only in the journal: where reading them back resumes. */
  private spillCursor: JournalCursor | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sending = false;
  private stopping = false;
  private wake: AbortController | undefined;
  private lastFailureLogAt = 0;
  private counters = { journalled: 0, readBack: 0, sent: 0, sendFailures: 0 };
  private lastAckAt: Date | undefined;
  private lastSendError: string | undefined;
  /**
   * The frames recorded since the last journal write, [0, groupEnd): written together by
   * writeGroup before any of their answers goes out. Reused, so the hot path allocates only the
   * copy it keeps.
   */
  private group = Buffer.allocUnsafe(64 * 1024);
  private groupEnd = 0;
  private groupEvents = 0;
  /** What record() answered for the frames in `group`: settled by writeGroup. */
  private groupWrite: GroupWrite | undefined;

  private constructor(
    private readonly config: UsageLedgerConfig,
    private readonly logger: Logger,
  ) {
    this.topic = config.topic ?? TOPICS.usageLookup;
    this.memoryLimit = config.memoryLimit ?? 50_000;
    this.batchSize = config.batchSize ?? 500;
    this.maxSendBytes = config.maxSendBytes ?? 900 * 1024;
    this.recordOverhead = recordOverheadBytes(this.topic.eventType);
    this.lingerMs = config.lingerMs ?? 20;
    this.segmentBytes = config.segmentBytes ?? 8 * 1024 * 1024;
    this.drainTimeoutMs = config.drainTimeoutMs ?? 10_000;
    this.clock = config.clock ?? systemClock;
  }

  static fromConfig(config: UsageLedgerConfig, logger: Logger): UsageLedger {
    return new UsageLedger(config, logger.child({ module: 'usage-ledger' }));
  }

  async start(): Promise<void> {
    mkdirSync(this.config.dir, { recursive: true });
    const lock = DirectoryLock.acquire(this.config.dir);
    try {
      this.journal = SegmentJournal.open(this.config.dir, { segmentBytes: this.segmentBytes }, this.logger);
    } catch (error) {
      lock.release();
      throw error;
    }
    this.lock = lock;
    const replayFrom = this.journal.replayFrom;
    if (replayFrom !== undefined) {
      // An earlier run's events go first; everything recorded from now on waits behind them on disk.
      this.spillCursor = replayFrom;
      this.logger.info(
        { segments: this.journal.segments.length - 1, bytes: this.journal.bytes - replayFrom.offset },
        'sending usage events journalled by an earlier run',
      );
      this.schedule();
    }
  }

  /**
   * Journals one accepted request's event: await it before writing the answer. Every event
   * recorded while the event loop's current callback and its promise jobs run shares one write(2)
   * (writeGroup, on process.nextTick, which Node runs once those jobs are done): when the promise
   * resolves, the event is in the journal file. Rejects with UnavailableError when the journal
   * cannot be written (then answer 503: an answer without its event would be lost usage); throws
   * it at once when the ledger is not running, and InvalidArgumentError for a record without
   * request id.
   *
   * Why grouped: one write(2) per request was ~7% of bff-en's main-thread busy time under GET
   * load (session 37 profile: `writeBuffer`), and the answers of one coalesced lookup batch are
   * all written in the same run of promise jobs anyway.
   */
  record(record: UsageRecord): Promise<void> {
    if (this.journal === undefined) throw new UnavailableError('the usage ledger is not running');
    const source = this.config.source;
    const room = FRAME_HEADER_BYTES + maxEncodedBytes(record, source);
    if (this.group.length - this.groupEnd < room) this.growGroup(room);
    const start = this.groupEnd;
    const end = encodeUsageRecord(record, source, this.group, start + FRAME_HEADER_BYTES);
    sealFrame(this.group, start, end);
    this.groupEnd = end;
    this.groupEvents++;
    if (this.groupWrite === undefined) {
      this.groupWrite = new GroupWrite();
      process.nextTick(() => this.writeGroup());
    }
    return this.groupWrite.written;
  }

  /** Writes the recorded frames to the journal in one write(2), then keeps each for sending. */
  private writeGroup(): void {
    const write = this.groupWrite;
    if (write === undefined) return;
    const frames = this.group;
    const end = this.groupEnd;
    const events = this.groupEvents;
    this.groupWrite = undefined;
    this.groupEnd = 0;
    this.groupEvents = 0;
    const journal = this.journal;
    if (journal === undefined) {
      write.fail(new UnavailableError('the usage ledger is not running'));
      return;
    }
    let segment: Segment;
    try {
      segment = journal.append(frames, end, events);
    } catch (error) {
      this.logger.error({ err: error, dir: this.config.dir }, 'usage journal write failed');
      write.fail(new UnavailableError('usage could not be recorded'));
      return;
    }
    this.counters.journalled += events;
    // Where the group's first frame lies in its segment.
    const base = segment.bytes - end;
    for (let from = 0; from < end;) {
      const to = from + FRAME_HEADER_BYTES + frames.readUInt32LE(from);
      if (this.spillCursor !== undefined) {
        // Older events wait on disk: this one waits behind them, in the journal only.
      } else if (this.inMemory < this.memoryLimit) {
        this.keep(frames, from + FRAME_HEADER_BYTES, to, segment, base + to);
      } else {
        // Memory is full: from this event on, events are read back from the journal as room frees up.
        this.spillCursor = { segment, offset: base + from };
      }
      from = to;
    }
    if (!this.sending && this.timer === undefined) this.schedule();
    write.done();
  }

  private growGroup(room: number): void {
    const grown = Buffer.allocUnsafe(Math.max(2 * this.group.length, this.groupEnd + 2 * room));
    this.group.copy(grown, 0, 0, this.groupEnd);
    this.group = grown;
  }

  /** The journal is writable; Kafka being down does not make the API unready (events wait). */
  async isReady(): Promise<boolean> {
    return this.journal !== undefined && !this.stopping;
  }

  stats(): UsageLedgerStats {
    // eslint-disable-next-line ipdata/no-spread-then-members -- read by tests and diagnostics, not per request
    return {
      ...this.counters,
      buffered: this.inMemory,
      spilled: this.spillCursor !== undefined,
      journalBytes: this.journal?.bytes ?? 0,
      segments: this.journal?.segments.length ?? 0,
      lastAckAt: this.lastAckAt,
      lastSendError: this.lastSendError,
    };
  }

  /**
   * Sends what it can within drainTimeoutMs, then closes the journal: whatever Kafka did not
   * acknowledge stays in it for the next start. Register the ledger after its producer and
   * before the HTTP server, so requests stop first and the producer last.
   */
  async shutdown(): Promise<void> {
    const journal = this.journal;
    if (journal === undefined) return;
    // Events recorded in this very turn still go to the journal (their answers wait for it).
    this.writeGroup();
    this.stopping = true;
    const deadline = performance.now() + this.drainTimeoutMs;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.wake?.abort();
    // Requests still finishing may record during the drain: the loop starts the sender again for them.
    while (this.pendingCount() > 0 && performance.now() < deadline) {
      if (!this.sending) void this.pump(deadline);
      await sleep(10);
    }
    const left = this.pendingCount();
    this.journal = undefined;
    this.wake?.abort();
    journal.close();
    await journal.drained();
    this.lock?.release();
    this.lock = undefined;
    if (left > 0 || this.spillCursor !== undefined) {
      this.logger.warn({ buffered: left, dir: this.config.dir }, 'usage events left in the journal for the next start');
    }
  }

  private pendingCount(): number {
    return this.inMemory + (this.spillCursor === undefined ? 0 : 1);
  }

  /**
   * Puts one journalled event's bytes in the batch filling up; a batch goes to the sender when it
   * is full, or before an event that would take its records past maxSendBytes.
   */
  private keep(source: Uint8Array, from: number, to: number, segment: Segment, end: number): void {
    const recordBytes = 2 * (to - from) + this.recordOverhead;
    if (this.open !== undefined && this.open.recordBytes + recordBytes > this.maxSendBytes) this.sealOpen();
    const batch = (this.open ??= new UsageEventFrames(this.framesPool));
    batch.append(source, from, to, segment, end);
    batch.recordBytes += recordBytes;
    this.inMemory++;
    if (batch.events >= this.batchSize) this.sealOpen();
  }

  private sealOpen(): void {
    if (this.open === undefined) return;
    this.sealed.push(this.open);
    this.open = undefined;
  }

  /**
   * The oldest batch to send: a full one, else the one filling up once its linger is over (or at
   * once when catching up on the journal or stopping). Under load the sender used to take whatever
   * came in during the last send's round trip, ~50 events: the broker then spent ~40 µs of CPU
   * per event instead of ~7 at 2,000 per send (scripts/bench/usage-kafka-records.bench.ts
   * --batch 60 against 2000), on the cores the API shares with it.
   */
  private nextBatch(): UsageEventFrames | undefined {
    if (this.sealed.length === 0 && this.open !== undefined) {
      if (this.lingerLeft(this.open) > 0) return undefined;
      this.sealOpen();
    }
    return this.sealed[0];
  }

  /** How long a batch filling up still waits before it is sent; 0 while catching up or stopping. */
  private lingerLeft(batch: UsageEventFrames): number {
    if (this.stopping || this.spillCursor !== undefined) return 0;
    return Math.max(0, batch.openedAt + this.lingerMs - performance.now());
  }

  private schedule(): void {
    if (this.sending || this.timer !== undefined || this.journal === undefined || this.stopping) return;
    const delay =
      this.spillCursor !== undefined || this.sealed.length > 0
        ? 0
        : this.open === undefined
          ? this.lingerMs
          : this.lingerLeft(this.open);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pump(Number.POSITIVE_INFINITY);
    }, delay);
  }

  /** The one sender: one batch in flight at a time, so events reach Kafka in journal order. */
  private async pump(deadline: number): Promise<void> {
    this.sending = true;
    let failures = 0;
    try {
      for (;;) {
        const journal = this.journal;
        if (journal === undefined) return;
        try {
          this.refill(journal);
        } catch (error) {
          // Only a bug or a damaged file gets here; keep the API up, say so, and try again later.
          this.logger.error({ err: error, dir: this.config.dir }, 'usage journal could not be read back');
          await this.pause(MAX_BACKOFF_MS);
          continue;
        }
        const batch = this.nextBatch();
        if (batch === undefined) return;
        try {
          await this.config.producer.sendEvents(this.topic.name, this.topic.eventType, batch.bytes());
        } catch (error) {
          failures++;
          this.counters.sendFailures++;
          this.lastSendError = errorText(error);
          this.logFailure(error, failures);
          if (this.stopping && performance.now() >= deadline) return;
          await this.pause(Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(failures, 6)));
          continue;
        }
        failures = 0;
        if (this.journal !== journal) return; // closed while the batch was in flight: it is journalled
        this.acknowledge(journal, batch);
      }
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  /** Moves spilled events from the journal back into memory, oldest first, as memory allows. */
  private refill(journal: SegmentJournal): void {
    const cursor = this.spillCursor;
    if (cursor === undefined) return;
    const room = Math.min(this.memoryLimit - this.inMemory, this.batchSize * 4);
    if (room <= 0) return;
    const { payloads, cursor: next } = journal.read(cursor, room);
    for (const { payload, segment, end } of payloads) {
      try {
        UsageEvent.decode(payload);
      } catch (error) {
        // The CRC matched, so these are the bytes that were written, and they will never decode:
        // count the event as done rather than block every event behind it.
        this.logger.error({ err: error, segment: segment.path, end }, 'usage journal frame is not a UsageEvent; skipped');
        journal.acknowledge(segment, 1);
        continue;
      }
      this.keep(payload, 0, payload.length, segment, end);
    }
    this.counters.readBack += payloads.length;
    // Caught up: record() puts new events in memory again, behind the ones just read.
    this.spillCursor = next;
  }

  private acknowledge(journal: SegmentJournal, batch: UsageEventFrames): void {
    this.sealed.shift();
    this.inMemory -= batch.events;
    for (const run of batch.runs) journal.acknowledge(run.segment, run.events);
    if (batch.last !== undefined) journal.checkpointAt(batch.last.segment, batch.last.end);
    this.counters.sent += batch.events;
    this.lastAckAt = this.clock.now();
    this.lastSendError = undefined;
    batch.release();
  }

  /** Waits before a retry; shutdown cuts the wait short. */
  private async pause(ms: number): Promise<void> {
    this.wake = new AbortController();
    await sleep(this.stopping ? Math.min(ms, 200) : ms, undefined, { signal: this.wake.signal }).catch(() => undefined);
    this.wake = undefined;
  }

  private logFailure(error: unknown, failures: number): void {
    const now = performance.now();
    if (failures > 1 && now - this.lastFailureLogAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLogAt = now;
    this.logger.warn(
      { error: errorText(error), buffered: this.inMemory, spilled: this.spillCursor !== undefined },
      'usage events not acknowledged by Kafka; they wait in the journal and are retried',
    );
  }
}

/** One group's write, as record()'s callers await it. */
class GroupWrite {
  readonly written: Promise<void>;
  done!: () => void;
  fail!: (error: Error) => void;

  constructor() {
    this.written = new Promise<void>((resolve, reject) => {
      this.done = resolve;
      this.fail = reject;
    });
    // Each caller awaits `written`; this handler only keeps a group nobody awaits (a test's
    // loop) from being an unhandled rejection when its write fails.
    this.written.catch(() => undefined);
  }
}
