import { FailedPreconditionError, InvalidArgumentError, NotFoundError, errorText, type Clock } from '@ipdata/common';
import type { Logger } from 'pino';
import { dayStart } from '../counters/counter-delta.js';
import {
  collectionsFor,
  newGenerationSuffix,
  type RollupCollections,
  type RollupGeneration,
} from '../counters/rollup-generation.js';
import type {
  LedgerOffsets,
  LedgerReplaySource,
  LiveLedger,
  ReplayBatchHandler,
  ReplayReader,
  RollupCollectionsAdmin,
} from './replay-ports.js';

/** Where a replay starts reading the ledger. */
export type ReplayFrom =
  | { kind: 'earliest' }
  /** Days from this time's UTC day on are rebuilt; earlier days are copied from the live generation. */
  | { kind: 'time'; time: Date }
  /** Named partitions start there, the others at their earliest retained record. */
  | { kind: 'offsets'; offsets: LedgerOffsets };

export type ReplayState = 'running' | 'swapped' | 'failed';

export interface ReplayStatus {
  id: string;
  state: ReplayState;
  startedAt: Date;
  finishedAt?: Date;
  recordsRead: number;
  eventsCounted: number;
  /** Records left up to the live consumer's position as last read. */
  recordsLeft: number;
  error?: string;
  /** The generation suffix serving the rollups ('' = the first generation). */
  generation: string;
}

export interface RollupReplayDeps {
  generation: RollupGeneration;
  source: LedgerReplaySource;
  live: LiveLedger;
  admin: RollupCollectionsAdmin;
  /** h1's ledger batch handler writing the usage and trend folds into `collections` (no carry, no closing). */
  handlerFor: (collections: RollupCollections) => ReplayBatchHandler;
  /** The closing gate's boundary now (carries into hours from here on are copied at the swap). */
  openFrom: () => Date;
  clock: Clock;
  logger: Logger;
}

/** Catch-up passes while the live consumer runs, before it is paused for the last stretch. */
const CATCH_UP_PASSES = 3;
/** A catch-up pass that leaves fewer records than this is the last one before the pause. */
const SMALL_ENOUGH = 5_000;
/**
 * A rebuild from a time starts reading this much before the day it rebuilds. Our producers stamp
 * each record with its event time (common EventProducer), so the broker's offset for a time is
 * exact; the margin covers a producer that stamps the send time after a small clock skew.
 * Records of earlier days read in that stretch are skipped (those days are copied).
 */
const TIME_MARGIN_MS = 3_600_000;

/**
 * Rebuilds the usage and trend rollups from the ledger into fresh collections and swaps them in
 * (DESIGN-12 "Replay"). The replay reads with its own consumer and the live handler's claims, so
 * each record gets the same first-or-duplicate answer as it got live; it catches up while the
 * live consumer runs, then pauses it, reads up to its committed offsets, copies the carries into
 * open hours, switches the generation and resumes. Any failure leaves the live generation as it
 * was (the fresh collections are dropped). One replay at a time per process.
 */
export class RollupReplays {
  private readonly replays = new Map<string, ReplayStatus>();
  private running: Promise<void> | undefined;
  private reader: ReplayReader | undefined;

  constructor(private readonly deps: RollupReplayDeps) {}

  /** Starts a replay in the background; its status is at get(id). */
  start(from: ReplayFrom): ReplayStatus {
    if (this.running) throw new FailedPreconditionError('a replay is running', { reason: 'replay_running' });
    if (from.kind === 'time' && Number.isNaN(from.time.getTime())) {
      throw new InvalidArgumentError('time is not a valid time', { reason: 'invalid_time' });
    }
    const startedAt = this.deps.clock.now();
    const suffix = newGenerationSuffix(startedAt);
    const status: ReplayStatus = {
      id: suffix.slice(2),
      state: 'running',
      startedAt,
      recordsRead: 0,
      eventsCounted: 0,
      recordsLeft: 0,
      generation: this.deps.generation.suffix(),
    };
    this.replays.set(status.id, status);
    this.running = this.run(status, suffix, from).finally(() => {
      this.running = undefined;
    });
    return { ...status };
  }

  get(id: string): ReplayStatus {
    const status = this.replays.get(id);
    if (!status) throw new NotFoundError(`no replay ${id} in this process`, { reason: 'replay_not_found' });
    return { ...status };
  }

  /** Resolves when the replay in progress (if any) ended (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Service shutdown: a replay in progress fails (its reader is closed) and ends before this resolves. */
  async stop(): Promise<void> {
    await this.reader?.close();
    await this.running;
  }

  private async run(status: ReplayStatus, suffix: string, from: ReplayFrom): Promise<void> {
    const { generation, source, live, admin, logger } = this.deps;
    const log = logger.child({ replay: status.id });
    const target = collectionsFor(suffix);
    const liveCollections = generation.current();
    let reader: ReplayReader | undefined;
    let paused = false;
    let swapped = false;
    try {
      await admin.prepare(target);
      const earliest = await source.earliestOffsets();
      let start: Map<number, number> = earliest;
      let rebuildFrom: Date | undefined;
      if (from.kind === 'time') {
        rebuildFrom = dayStart(from.time);
        const copied = await admin.copyBefore(liveCollections, target, rebuildFrom);
        log.info({ rebuildFrom, copied }, 'copied the rollups of the days before the rebuild');
        start = await source.offsetsAtTime(new Date(rebuildFrom.getTime() - TIME_MARGIN_MS));
      } else if (from.kind === 'offsets') {
        start = new Map(earliest);
        for (const [partition, offset] of from.offsets) {
          if (!earliest.has(partition))
            throw new InvalidArgumentError(`the ledger has no partition ${partition}`, { reason: 'invalid_offsets' });
          start.set(partition, Math.max(offset, earliest.get(partition) ?? 0));
        }
      }
      const handler = this.counting(status, this.deps.handlerFor(target), rebuildFrom);
      reader = await source.open(status.id, start, handler);
      this.reader = reader;
      const read = reader;
      const upTo = async (committed: Map<number, number>) => {
        const targets = new Map(
          [...start].map(([partition, offset]) => [partition, Math.max(offset, committed.get(partition) ?? offset)]),
        );
        const progress = setInterval(() => this.progress(status, read, targets), 500);
        try {
          this.progress(status, read, targets);
          await read.readUpTo(targets);
        } finally {
          clearInterval(progress);
          this.progress(status, read, targets);
        }
      };
      log.info({ from: from.kind, target }, 'replay started');
      for (let pass = 0; pass < CATCH_UP_PASSES; pass++) {
        await upTo(await live.committedOffsets());
        if (status.recordsLeft < SMALL_ENOUGH) break;
      }
      await live.pause();
      paused = true;
      await upTo(await live.committedOffsets());
      const carries = await admin.copyOpenCarries(liveCollections.usage, target.usage, this.deps.openFrom());
      await generation.switchTo(suffix);
      swapped = true;
      log.info({ recordsRead: status.recordsRead, eventsCounted: status.eventsCounted, carries }, 'replay swapped in');
    } catch (error) {
      status.error = errorText(error);
      log.error({ reason: status.error }, 'replay failed; the live generation is unchanged');
    } finally {
      // The live consumer first: nothing below needs it paused.
      if (paused) live.resume();
      this.reader = undefined;
      await reader
        ?.close()
        .catch((closeError) => log.warn({ reason: errorText(closeError) }, 'replay reader did not close cleanly'));
      if (!swapped) {
        await admin
          .drop(target)
          .catch((dropError) => log.warn({ reason: errorText(dropError) }, 'could not drop the replay collections'));
      }
      // The final state only once everything is cleaned up: a caller that sees it may start the next replay.
      if (swapped) {
        status.generation = suffix;
        status.recordsLeft = 0;
      }
      status.finishedAt = this.deps.clock.now();
      status.state = swapped ? 'swapped' : 'failed';
    }
  }

  /** Counts what the handler counted; a rebuild from a time skips events of the copied days. */
  private counting(status: ReplayStatus, handler: ReplayBatchHandler, rebuildFrom: Date | undefined): ReplayBatchHandler {
    const from = rebuildFrom?.getTime();
    return async (batch) => {
      const events =
        from === undefined
          ? batch.events
          : batch.events.filter((consumed) => (consumed.event.meta?.time?.getTime() ?? Date.parse(consumed.time)) >= from);
      if (events.length === 0) return 0;
      const counted = await handler(events.length === batch.events.length ? batch : { ...batch, events });
      status.eventsCounted += counted;
      return counted;
    };
  }

  private progress(status: ReplayStatus, reader: ReplayReader, targets: LedgerOffsets): void {
    const positions = reader.positions();
    let left = 0;
    for (const [partition, target] of targets) left += Math.max(0, target - (positions.get(partition) ?? target));
    status.recordsRead = reader.recordsRead();
    status.recordsLeft = left;
  }
}
