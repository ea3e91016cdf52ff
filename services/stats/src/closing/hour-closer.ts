import type { Logger } from 'pino';
import { PeriodicTask, type Clock, type Component } from '@ipdata/common';
import { hourStart, monthStart, nextMonthStart } from '../counters/counter-delta.js';
import type { InProcessClosingGate } from './closing-gate.js';
import type { ClosedRecords, ClosedUsageSource, ClosingState, ClosingStateStore, PendingPublisher } from './closing-ports.js';

const HOUR_MS = 3_600_000;

export interface HourCloserConfig {
  /** An hour is closed this long after it ended (late events in between are simply on time). */
  closeDelayMs: number;
  intervalMs: number;
}

export interface HourCloserDeps {
  gate: InProcessClosingGate;
  state: ClosingStateStore;
  usage: ClosedUsageSource;
  records: ClosedRecords;
  publisher: PendingPublisher;
  clock: Clock;
  /**
   * Whether the ledger consumer is consuming now. While it is not (broker down, rebalancing),
   * events of the hour may be stuck upstream: closing waits instead of carrying them all.
   */
  isLedgerReady: () => boolean;
}

/**
 * Closes hours for billing, oldest first (DESIGN-12 "Closing"). For each hour H = openFrom:
 * (a) persist openFrom = H+1h, (b) advance the gate and wait for rounds with the old boundary,
 * (c) insert one closed record per account (with its UsageRollup in the outbox), and when H is
 * a month's last hour one MONTH record per account = Σ its closed hours, then (d) persist
 * closedTo = H+1h. Each step is idempotent: a run killed between any two steps is finished by
 * the next run (closedTo < openFrom), and insert-if-absent keeps every (account, hour) and
 * (account, month) to one record and one event id, so nothing is skipped or doubled.
 */
export class HourCloser implements Component {
  readonly name = 'hour-closer';
  private readonly task: PeriodicTask;
  private loaded: ClosingState | undefined;

  constructor(
    private readonly config: HourCloserConfig,
    private readonly deps: HourCloserDeps,
    private readonly logger: Logger,
  ) {
    this.task = PeriodicTask.fromConfig({ name: this.name, intervalMs: config.intervalMs, run: () => this.runOnce() }, logger);
  }

  /** Loads the boundary into the gate (first start: the current hour), then runs periodically. Start it before the ledger consumer. */
  async start(): Promise<void> {
    this.loaded = await this.deps.state.loadOrCreate(hourStart(this.deps.clock.now()));
    this.deps.gate.open(this.loaded.openFrom);
    this.logger.info({ openFrom: this.loaded.openFrom, closedTo: this.loaded.closedTo }, 'closing boundary loaded');
    await this.task.start();
  }

  shutdown(): Promise<void> {
    return this.task.shutdown();
  }

  /** Test hook: one run now (errors logged, as in production). */
  runNow(): Promise<void> {
    return this.task.runNow();
  }

  /** One closing pass: finishes an interrupted hour, then closes every hour that is due. Returns the hours closed. */
  async runOnce(): Promise<number> {
    let state = this.loaded ?? (await this.deps.state.loadOrCreate(hourStart(this.deps.clock.now())));
    let closed = 0;
    for (;;) {
      if (!this.deps.isLedgerReady()) {
        this.logger.debug({ openFrom: state.openFrom }, 'ledger consumer not ready: closing waits');
        break;
      }
      if (state.closedTo < state.openFrom) {
        // (b)-(d) for the hour whose boundary moved already (this run, or a run that died).
        await this.deps.gate.advance(state.openFrom);
        await this.closeHour(state.closedTo);
        state = await this.deps.state.advanceClosedTo(state.closedTo, new Date(state.closedTo.getTime() + HOUR_MS));
        closed += 1;
        continue;
      }
      const due = state.openFrom.getTime() + HOUR_MS + this.config.closeDelayMs <= this.deps.clock.now().getTime();
      if (!due) break;
      // (a) Persist the new boundary first: after a crash the restarted gate starts from it, so
      // every round of the new process counts this hour's stragglers as late (carried).
      state = await this.deps.state.advanceOpenFrom(state.openFrom, new Date(state.openFrom.getTime() + HOUR_MS));
    }
    this.loaded = state;
    return closed;
  }

  private async closeHour(hour: Date): Promise<void> {
    const now = this.deps.clock.now();
    const totals = await this.deps.usage.hourTotals(hour);
    let inserted = 0;
    for (const [accountId, lookups] of totals) {
      const id = await this.deps.records.insertIfAbsent({ period: 'hour', accountId, periodStart: hour, lookups }, now);
      if (id !== null) {
        inserted += 1;
        await this.deps.publisher.publishPending(id);
      }
    }
    this.logger.info({ hour, accounts: totals.size, inserted }, 'hour closed');
    const next = new Date(hour.getTime() + HOUR_MS);
    if (next.getTime() === nextMonthStart(hour).getTime()) await this.closeMonth(monthStart(hour), next);
  }

  /** The month's last hour is closed: every account's month = Σ its closed hours (billing invoices it). */
  private async closeMonth(start: Date, end: Date): Promise<void> {
    const now = this.deps.clock.now();
    const sums = await this.deps.records.hourSums(start, end);
    for (const [accountId, lookups] of sums) {
      const id = await this.deps.records.insertIfAbsent({ period: 'month', accountId, periodStart: start, lookups }, now);
      if (id !== null) await this.deps.publisher.publishPending(id);
    }
    this.logger.info({ month: start, accounts: sums.size }, 'month closed');
  }
}
