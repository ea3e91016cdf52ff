import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  InvalidArgumentError,
  TurnBatcher,
  errorText,
  type TurnBatcherOptions,
  type Clock,
  type Component,
  type Logger,
} from '@ipdata/common';
import { decisionOf, type PendingReservation as Pending, type SettledReservation as Settled } from './quota-decision.js';
import { FailOpenRule } from './quota-fail-open.js';
import { QuotaLeases, type LeaseRound, type QuotaLeaseOptions } from './quota-leases.js';
import { daysOfMonthSoFar, periodOf, type QuotaPeriod } from './quota-period.js';
import type { KeyedReserveCommand, QuotaStore, ReserveCommand, ReserveOutcome } from './quota.ports.js';
import {
  QuotaUnavailableError,
  monthlyCeiling,
  type QuotaDecision,
  type QuotaRequest,
  type QuotaStatus,
  type QuotaSubject,
} from './quota.types.js';

export interface QuotaServiceOptions {
  store: QuotaStore;
  clock: Clock;
  logger: Logger;
  /** A store call without an answer after this long counts as "Redis down" (default 500 ms). */
  deadlineMs?: number;
  batch?: TurnBatcherOptions;
  /**
   * How long an API requests' script call's answer is remembered under the call's id: long enough
   * for a call ioredis re-sends after a reconnect (default 120 s).
   */
  requestMemorySeconds?: number;
  /** The same for `durable` reservations (bulk chunks): longer than a month (default 35 days). */
  durableMemorySeconds?: number;
  /**
   * Quota leases (quota-leases.ts): accounts far from their limit are served from a block of
   * lookups this process holds, without a store call per turn. Off when not given.
   */
  leases?: QuotaLeaseOptions;
}

export interface QuotaStats {
  reservations: number;
  /** Store (script) calls made for reservations: far fewer than reservations under load. */
  scriptCalls: number;
  /** Paid reservations granted by the fail rule while Redis did not answer. */
  degradedGrants: number;
  refusedUnavailable: number;
  /** Lookups given back because their work failed after the grant. */
  released: number;
  /** Reservations answered from this process's leases, without a store call. */
  leaseGrants: number;
  /** Lease rounds that reached the store. */
  leaseRounds: number;
  /** Times a reservation waited for leased lookups to come back (near an account's limit). */
  leaseWaits: number;
}

/** Releases Redis did not answer, kept in memory and applied after the next call it answers. */
const UNRELEASED_MAX = 10_000;

interface Release {
  subject: QuotaSubject;
  requestId: string;
  count: number;
  at: Date;
}

/**
 * The public API's monthly quota and per-key burst limit, exact across any number of bff-en
 * processes: every reservation is decided inside one Redis Lua script (the store), and the
 * reservations of one event-loop turn share one script call (common's TurnBatcher). When Redis does not
 * answer, free keys are refused (QuotaUnavailableError → 503) and paid keys are let through;
 * their requests' usage events count them, through stats' quota reconciler (README.md, "Quotas").
 */
export class QuotaService implements Component {
  readonly name = 'quota';
  private readonly store: QuotaStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly batcher: TurnBatcher<Pending, Settled>;
  private readonly deadlineMs: number;
  private readonly requestMemorySeconds: number;
  private readonly durableMemorySeconds: number;
  private readonly failOpen: FailOpenRule;
  private down = false;
  private readonly counters = { reservations: 0, released: 0, leaseRounds: 0, leaseWaits: 0 };
  private readonly leases: QuotaLeases | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private leaseRound: Promise<void> | undefined;
  private leaseRoundFailing = false;
  private readonly releases = new Set<Promise<void>>();
  private unreleased: Release[] = [];
  /** Store calls are named `<this instance>:<n>`: unique across processes and restarts. */
  private readonly callPrefix = `${randomUUID()}:`;
  private callSeq = 0;
  private lastPeriod: QuotaPeriod | undefined;

  constructor(options: QuotaServiceOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.logger = options.logger;
    this.failOpen = new FailOpenRule();
    this.batcher = new TurnBatcher((items) => this.decide(items), options.batch);
    this.deadlineMs = options.deadlineMs ?? 500;
    this.requestMemorySeconds = options.requestMemorySeconds ?? 120;
    this.durableMemorySeconds = options.durableMemorySeconds ?? 35 * 24 * 3600;
    this.leases = options.leases === undefined ? undefined : new QuotaLeases(options.leases);
  }

  static create(options: QuotaServiceOptions): QuotaService {
    return new QuotaService(options);
  }

  /** Starts the lease rounds; needs no store (Redis may be down). */
  async start(): Promise<void> {
    if (this.leases !== undefined) {
      this.leaseTimer = setInterval(() => void this.runLeaseRound(), this.leases.intervalMs);
      this.leaseTimer.unref();
    }
  }

  async shutdown(): Promise<void> {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    await this.batcher.drained();
    await Promise.all(this.releases);
    if (this.leases !== undefined) {
      // Count what was granted from the leases and give them back, so the counters are exact now.
      this.leases.giveBackAll();
      await this.runLeaseRound();
      await this.runLeaseRound();
    }
  }

  get stats(): QuotaStats {
    // eslint-disable-next-line ipdata/no-spread-then-members -- read by tests and diagnostics, not per request
    return {
      ...this.counters,
      scriptCalls: this.batcher.calls,
      degradedGrants: this.failOpen.degraded,
      refusedUnavailable: this.failOpen.refused,
      leaseGrants: this.leases?.granted ?? 0,
    };
  }

  /** Grants all of `count`, part of it (`partial`), or nothing with the reason; never counts one request id twice. */
  async reserve(request: QuotaRequest): Promise<QuotaDecision> {
    if (!Number.isSafeInteger(request.count) || request.count < 0) {
      throw new InvalidArgumentError(`quota reservation count must be a whole number ≥ 0, got ${request.count}`);
    }
    this.counters.reservations++;
    const now = this.clock.now();
    const pending: Pending = { request, now, period: this.periodAt(now) };
    const leased = this.leases?.grant(pending);
    if (leased !== undefined) return leased;
    for (let wait = 0; ; wait++) {
      const settled = await this.decideOne(pending);
      if ('error' in settled) throw settled.error;
      if (!('leaseHeld' in settled)) return settled.decision;
      // Near the limit, leased lookups are out: the store has recalled them (they come back within a
      // round, or expire within a lease's time); ask again then.
      if (wait >= this.leaseWaitsMax()) throw new QuotaUnavailableError('leased quota did not come back in time');
      this.counters.leaseWaits++;
      this.leases?.giveBack(request.subject.accountId);
      await sleep(this.leases?.intervalMs ?? 100);
      pending.now = this.clock.now();
      pending.period = this.periodAt(pending.now);
    }
  }

  private async decideOne(pending: Pending): Promise<Settled> {
    try {
      return await this.batcher.submit(pending);
    } catch (error) {
      // Queue full (or a store answer of the wrong length): the same rule as Redis being down.
      return this.fallback([pending], error)[0] as Settled;
    }
  }

  /** Leases live at most ttlMs (default 1 s) after a recall stops their renewal: wait twice that. */
  private leaseWaitsMax(): number {
    const intervalMs = this.leases?.intervalMs ?? 100;
    return Math.ceil((2 * (this.leases?.ttlMs ?? 1_000)) / intervalMs) + 5;
  }

  /**
   * One lease round (quota-leases.ts): counts what was granted from the leases and renews them.
   * One at a time; a store that does not answer leaves the leases to run out, and what they
   * granted is counted by a later round.
   */
  runLeaseRound(): Promise<void> {
    this.leaseRound ??= this.leaseRoundOnce().finally(() => {
      this.leaseRound = undefined;
    });
    return this.leaseRound;
  }

  private async leaseRoundOnce(): Promise<void> {
    const leases = this.leases;
    if (leases === undefined) return;
    const round: LeaseRound = leases.nextRound(this.clock.now());
    if (round.commands.length === 0) return;
    try {
      const answers = await this.withDeadline(
        this.store.leaseRound(this.callPrefix, { ttlMs: leases.ttlMs, farFactor: leases.farFactor }, round.commands),
      );
      leases.settle(round, answers);
      this.counters.leaseRounds++;
      for (const [i, command] of round.commands.entries()) {
        this.failOpen.remember(command.accountId, command.month, answers[i]?.used ?? 0);
      }
      if (this.leaseRoundFailing) this.logger.info('quota lease rounds reach Redis again');
      this.leaseRoundFailing = false;
    } catch (error) {
      leases.roundFailed(round);
      if (!this.leaseRoundFailing) {
        this.logger.warn({ reason: errorText(error) }, 'quota lease round failed: leases run out, grants counted later');
      }
      this.leaseRoundFailing = true;
    }
  }

  /**
   * Gives back `count` lookups granted to `requestId` whose work then failed (the lookup engine did
   * not answer), in the month and day of the grant (`at`), once: remembered under
   * `<requestId>:released`. A grant of the fail rule was never counted in Redis: nothing to give
   * back there. Redis not answering: kept in memory and applied after the next call it answers (a
   * process lost meanwhile leaves the counter above the usage; billing counts from the usage events).
   * Never throws; shutdown waits for releases in flight.
   */
  release(subject: QuotaSubject, requestId: string, count: number, at: Date, leased = false): Promise<void> {
    // Granted from a lease: counted back with what the lease granted, at its next round.
    if (leased && this.leases?.giveBackGranted(subject, periodOf(at).day, count) === true) {
      this.counters.released += count;
      return Promise.resolve();
    }
    if (this.failOpen.forget(subject.accountId, requestId, count)) {
      this.counters.released += count;
      return Promise.resolve();
    }
    return this.track({ subject, requestId: `${requestId}:released`, count, at });
  }

  private track(release: Release): Promise<void> {
    const done = this.releaseOnce(release).finally(() => this.releases.delete(done));
    this.releases.add(done);
    return done;
  }

  private async releaseOnce(release: Release): Promise<void> {
    try {
      const [outcome] = await this.withDeadline(this.store.reserveEach([releaseCommand(release, this.durableMemorySeconds)]));
      if (outcome?.replayed === false) this.counters.released += release.count;
    } catch (error) {
      const { accountId } = release.subject;
      if (this.unreleased.length >= UNRELEASED_MAX) {
        this.logger.error(
          { reason: errorText(error), accountId, count: release.count },
          'quota release lost: the counter stays above the usage',
        );
        return;
      }
      this.unreleased.push(release);
      this.logger.warn({ reason: errorText(error), accountId }, 'quota release not applied; retried once Redis answers');
    }
  }

  /** This month's counters for GET /v1/usage. */
  async status(subject: QuotaSubject): Promise<QuotaStatus> {
    // What this process granted from its lease is counted first, so a caller reads its own requests.
    for (let round = 0; round < 2 && (this.leases?.unsettled(subject.accountId) ?? 0) !== 0; round++) {
      await this.runLeaseRound();
    }
    const now = this.clock.now();
    const period = periodOf(now);
    const days = daysOfMonthSoFar(now);
    let counters;
    try {
      counters = await this.withDeadline(this.store.usage(subject.accountId, subject.keyId, period.month, days));
    } catch (error) {
      throw new QuotaUnavailableError('usage counters temporarily unavailable', { cause: error });
    }
    const included = subject.includedPerMonth;
    return {
      limit: included,
      used: counters.used,
      remaining: Math.max(0, included - counters.used),
      resetAt: period.resetAt,
      overage: Math.max(0, counters.used - included),
      maxPerMonth: subject.maxPerMonth,
      perDay: {
        account: days.map((date, i) => ({ date, count: counters.accountDays[i] ?? 0 })),
        key: days.map((date, i) => ({ date, count: counters.keyDays[i] ?? 0 })),
      },
    };
  }

  /**
   * One batch: API requests in one store call (idempotent by the call's id), bulk chunks
   * (`durable`) remembered by their own ids beside it. Each part that Redis does not answer goes
   * to the fail rule.
   */
  private async decide(items: Pending[]): Promise<Settled[]> {
    const plain: Pending[] = [];
    const keyed: Pending[] = [];
    for (const item of items) (item.request.durable === true ? keyed : plain).push(item);
    const callId = this.callPrefix + String(++this.callSeq);
    const [plainSettled, keyedSettled] = await Promise.all([
      this.decidePart(plain, () => this.store.reserveCall(callId, plain.map(commandOf), this.requestMemorySeconds)),
      this.decidePart(keyed, () => this.store.reserveEach(keyed.map((item) => this.keyedCommand(item)))),
    ]);
    if (keyed.length === 0) return plainSettled;
    let p = 0;
    let k = 0;
    return items.map((item) => (item.request.durable === true ? keyedSettled[k++] : plainSettled[p++]) as Settled);
  }

  private async decidePart(items: Pending[], reserve: () => Promise<ReserveOutcome[]>): Promise<Settled[]> {
    if (items.length === 0) return [];
    let outcomes: ReserveOutcome[];
    try {
      outcomes = await this.withDeadline(reserve());
      if (outcomes.length !== items.length) throw new Error(`quota store answered ${outcomes.length} of ${items.length}`);
    } catch (error) {
      return this.fallback(items, error);
    }
    if (this.down) {
      this.down = false;
      this.failOpen.outageOver();
      this.logger.info('Redis answers quota reservations again');
    }
    if (this.unreleased.length > 0) {
      const retry = this.unreleased;
      this.unreleased = [];
      for (const release of retry) void this.track(release);
    }
    const settled: Settled[] = [];
    let maxUsed = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Pending;
      const outcome = outcomes[i] as ReserveOutcome;
      settled.push(outcome.status === 'lease_held' ? { leaseHeld: true } : { decision: decisionOf(item, outcome) });
      // The counter as this call left it, remembered once per run of one account's requests.
      maxUsed = Math.max(maxUsed, outcome.used);
      const accountId = item.request.subject.accountId;
      if (items[i + 1]?.request.subject.accountId !== accountId) {
        this.failOpen.remember(accountId, item.period.month, maxUsed);
        maxUsed = 0;
      }
    }
    return settled;
  }

  /** Redis did not answer: the fail rule decides (README.md, "Quotas"). */
  private fallback(items: Pending[], error: unknown): Settled[] {
    if (!this.down) {
      this.down = true;
      this.logger.warn(
        { reason: errorText(error) },
        'Redis does not answer quota reservations: free keys refused, paid keys granted within the last known cap',
      );
    }
    return this.failOpen.apply(items, error);
  }

  private keyedCommand(item: Pending): KeyedReserveCommand {
    return Object.assign(commandOf(item), {
      requestId: item.request.requestId,
      force: false,
      rememberSeconds: this.durableMemorySeconds,
    });
  }

  /** periodOf(now), computed once per second (every reservation needs it; it builds strings and a Date). */
  private periodAt(now: Date): QuotaPeriod {
    const second = Math.floor(now.getTime() / 1000);
    if (this.lastPeriod?.second !== second) this.lastPeriod = periodOf(now);
    return this.lastPeriod;
  }

  private withDeadline<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`quota store gave no answer within ${this.deadlineMs} ms`)), this.deadlineMs);
    });
    return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
  }
}

/** An API request's reservation as the store takes it. */
function commandOf({ request, period }: Pending): ReserveCommand {
  const { subject } = request;
  return {
    accountId: subject.accountId,
    keyId: subject.keyId,
    count: request.count,
    partial: request.partial,
    ceiling: monthlyCeiling(subject),
    burstPerSecond: request.checkBurst === false ? 0 : subject.burstPerSecond,
    month: period.month,
    day: period.day,
    second: period.second,
  };
}

/** A release: forced, with the negative count, in the grant's month and day, remembered under its id. */
function releaseCommand({ subject, requestId, count, at }: Release, rememberSeconds: number): KeyedReserveCommand {
  const period = periodOf(at);
  return {
    requestId,
    accountId: subject.accountId,
    keyId: subject.keyId,
    count: -count,
    partial: false,
    ceiling: -1,
    burstPerSecond: 0,
    force: true,
    rememberSeconds,
    month: period.month,
    day: period.day,
    second: period.second,
  };
}
