import { setTimeout as sleep } from 'node:timers/promises';
import { errorText, systemClock, type Clock, type Component, type Logger } from '@ipdata/common';
import { splitFrames } from './usage-frames.js';
import type { StoredUsageGroup, UsageEventSink, UsageStreamReader } from './usage.ports.js';

export interface UsageRelayConfig {
  stream: UsageStreamReader;
  sink: UsageEventSink;
  /** This relay's consumer name in the stream's group: the process's instance id (pod name). */
  consumer: string;
  /** Stream entries read at once (default 50). */
  readCount?: number;
  /** Most events per Kafka send (default 2,000: well under the broker's 1 MiB batch limit). */
  maxSendEvents?: number;
  /** How long a read waits for new entries (default 1 s; also how late shutdown() may notice). */
  blockMs?: number;
  /**
   * An entry pending this long with another relay is taken over (default 30 s): that relay is gone
   * (killed, scaled away) or stuck. Far longer than a send to a healthy broker.
   */
  claimIdleMs?: number;
  /** How often to look for such entries (default 10 s). */
  claimIntervalMs?: number;
  /**
   * Consumers of the group idle this long with nothing pending are removed (default 10 min): the
   * names of pods scaled away, which would otherwise stay in the group for ever.
   */
  pruneIdleMs?: number;
  /** How long shutdown() lets a send in flight finish (default 10 s); the rest stays pending. */
  drainTimeoutMs?: number;
  clock?: Clock;
}

export interface UsageRelayStats {
  /** Events acknowledged by Kafka since start. */
  relayed: number;
  /** Stream entries taken over from other relays. */
  claimed: number;
  /** Consumers of relays that are gone, removed from the group. */
  pruned: number;
  sendFailures: number;
  /** Entries whose frames could not be read (a bug, never expected): kept in the log, acknowledged. */
  unreadable: number;
  lastSendError: string | undefined;
  lastAckAt: Date | undefined;
}

const MAX_BACKOFF_MS = 5_000;

/**
 * Moves the usage stream to Kafka (docs/adr/0001-usage-ledger-durability.md): every metering
 * process runs one, as a member of the stream's consumer group. An entry is acknowledged (and
 * deleted) only after Kafka acknowledged all its events, so a relay killed mid-send leaves it
 * pending; its own restart or any other relay (claimStale, after `claimIdleMs`) sends it again.
 * Events may therefore reach the topic twice; consumers de-duplicate on the event id.
 */
export class UsageRelay implements Component {
  readonly name = 'usage-relay';
  private readonly readCount: number;
  private readonly maxSendEvents: number;
  private readonly blockMs: number;
  private readonly claimIdleMs: number;
  private readonly claimIntervalMs: number;
  private readonly pruneIdleMs: number;
  private readonly drainTimeoutMs: number;
  private readonly clock: Clock;
  private readonly counters = { relayed: 0, claimed: 0, pruned: 0, sendFailures: 0, unreadable: 0 };
  private lastSendError: string | undefined;
  private lastAckAt: Date | undefined;
  private lastClaimAt = 0;
  private lastFailureLogAt = 0;
  private stopping = false;
  private wake = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly config: UsageRelayConfig,
    private readonly logger: Logger,
  ) {
    this.readCount = config.readCount ?? 50;
    this.maxSendEvents = config.maxSendEvents ?? 2_000;
    this.blockMs = config.blockMs ?? 1_000;
    this.claimIdleMs = config.claimIdleMs ?? 30_000;
    this.claimIntervalMs = config.claimIntervalMs ?? 10_000;
    this.pruneIdleMs = config.pruneIdleMs ?? 600_000;
    this.drainTimeoutMs = config.drainTimeoutMs ?? 10_000;
    this.clock = config.clock ?? systemClock;
  }

  async start(): Promise<void> {
    await this.config.stream.ensureGroup();
    this.loop = this.run();
  }

  stats(): UsageRelayStats {
    return Object.assign({}, this.counters, { lastSendError: this.lastSendError, lastAckAt: this.lastAckAt });
  }

  /** Stops reading; a send in flight may finish within drainTimeoutMs, anything else stays pending. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    if (this.loop === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.drainTimeoutMs)));
    await Promise.race([this.loop, timeout]);
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    // Our own pending entries first: a restart with the same consumer name finishes what it began.
    let pending = true;
    let failures = 0;
    while (!this.stopping) {
      try {
        const groups = await this.next(pending);
        if (pending && groups.length === 0) pending = false;
        if (groups.length > 0) await this.forward(groups);
        failures = 0;
      } catch (error) {
        failures++;
        this.noteFailure(error);
        // What failed is pending with us now: try it again before anything newer.
        pending = true;
        await this.pause(Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  private async next(pending: boolean): Promise<StoredUsageGroup[]> {
    const { stream, consumer } = this.config;
    if (pending) return stream.read(consumer, { count: this.readCount, blockMs: 0, pending: true });
    const now = this.clock.now().getTime();
    if (now - this.lastClaimAt >= this.claimIntervalMs) {
      this.lastClaimAt = now;
      const claimed = await stream.claimStale(consumer, this.claimIdleMs, this.readCount);
      await this.prune();
      if (claimed.length > 0) {
        this.counters.claimed += claimed.length;
        this.logger.info({ entries: claimed.length }, 'took over usage entries another relay left pending');
        return claimed;
      }
    }
    return stream.read(consumer, { count: this.readCount, blockMs: this.blockMs, pending: false });
  }

  /** Never fails the loop: a consumer left in the group costs a line of XINFO, nothing else. */
  private async prune(): Promise<void> {
    const pruned = await this.config.stream.pruneConsumers(this.config.consumer, this.pruneIdleMs).catch((error: unknown) => {
      this.logger.warn({ error: errorText(error) }, 'could not prune the usage stream consumers');
      return [];
    });
    if (pruned.length === 0) return;
    this.counters.pruned += pruned.length;
    this.logger.info({ consumers: pruned }, 'removed the consumers of usage relays that are gone');
  }

  /** Sends every event of `groups`, then acknowledges them; throws (nothing acknowledged) if a send fails. */
  private async forward(groups: readonly StoredUsageGroup[]): Promise<void> {
    let events: Uint8Array[] = [];
    for (const group of groups) {
      try {
        for (const event of splitFrames(group.frames)) events.push(event);
      } catch (error) {
        this.counters.unreadable++;
        this.logger.error({ entry: group.id, bytes: group.frames.length, error: errorText(error) }, 'unreadable usage entry');
      }
      if (events.length >= this.maxSendEvents) {
        await this.send(events);
        events = [];
      }
    }
    await this.send(events);
    await this.config.stream.ack(groups.map((group) => group.id));
    this.lastAckAt = this.clock.now();
  }

  private async send(events: Uint8Array[]): Promise<void> {
    if (events.length === 0) return;
    await this.config.sink.send(events);
    this.counters.relayed += events.length;
    this.lastSendError = undefined;
  }

  private noteFailure(error: unknown): void {
    this.counters.sendFailures++;
    this.lastSendError = errorText(error);
    const now = this.clock.now().getTime();
    if (now - this.lastFailureLogAt < 30_000) return;
    this.lastFailureLogAt = now;
    this.logger.warn({ error: this.lastSendError, failures: this.counters.sendFailures }, 'usage relay cannot send; retrying');
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopping) return;
    await sleep(ms, undefined, { signal: this.wake.signal }).catch(() => undefined);
  }
}
