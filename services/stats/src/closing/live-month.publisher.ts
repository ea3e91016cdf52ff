import type { Logger } from 'pino';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { PeriodicTask, type Clock, type Component } from '@ipdata/common';
import { hourStart, monthStart } from '../counters/counter-delta.js';
import type { CountedEvent } from '../ledger/ledger-ports.js';
import type { LiveUsageSource, RunningTotalSender } from './closing-ports.js';

/** Accounts per totals query and per send. */
const CHUNK = 500;

export interface LiveMonthPublisherDeps {
  usage: LiveUsageSource;
  sender: RunningTotalSender;
  clock: Clock;
}

/**
 * The running month total of every account with new public API usage, every interval, as a
 * MONTH UsageRollup with `closed = false` (billing's upcoming invoice). Totals only grow within
 * a month and a later one supersedes an earlier one, so a lost send is repaired by the next:
 * a failed send marks its accounts dirty again instead of using an outbox.
 */
export class LiveMonthPublisher implements Component {
  readonly name = 'live-month-rollups';
  private readonly task: PeriodicTask;
  /** `<account>|<month ISO>` → what to total. */
  private dirty = new Map<string, { accountId: string; monthStart: Date }>();

  constructor(
    intervalMs: number,
    private readonly deps: LiveMonthPublisherDeps,
    private readonly logger: Logger,
  ) {
    this.task = PeriodicTask.fromConfig({ name: this.name, intervalMs, run: () => this.runOnce() }, logger);
  }

  /** The ledger handler's hook after a round's writes: its public API events' accounts are dirty. */
  readonly onCounted = (events: readonly CountedEvent[]): void => {
    for (const { event, time } of events) {
      if (event.channel !== UsageChannel.USAGE_CHANNEL_PUBLIC_API || event.accountId === '') continue;
      this.markDirty(event.accountId, monthStart(time));
    }
  };

  /** Accounts with usage in the current hour are dirty: a restart must not leave their total stale until new traffic. */
  async start(): Promise<void> {
    const now = this.deps.clock.now();
    for (const accountId of await this.deps.usage.accountsWithUsage(hourStart(now))) this.markDirty(accountId, monthStart(now));
    await this.task.start();
  }

  async shutdown(): Promise<void> {
    await this.task.shutdown();
  }

  /** Test hook: one run now (errors logged). */
  runNow(): Promise<void> {
    return this.task.runNow();
  }

  get pendingAccounts(): number {
    return this.dirty.size;
  }

  /** Sends the running totals of the dirty accounts; returns how many were sent. */
  async runOnce(): Promise<number> {
    if (this.dirty.size === 0) return 0;
    const batch = [...this.dirty.values()];
    this.dirty = new Map();
    let sent = 0;
    try {
      const byMonth = new Map<number, string[]>();
      for (const { accountId, monthStart: month } of batch) {
        const accounts = byMonth.get(month.getTime()) ?? [];
        accounts.push(accountId);
        byMonth.set(month.getTime(), accounts);
      }
      for (const [month, accounts] of byMonth) {
        for (let from = 0; from < accounts.length; from += CHUNK) {
          const totals = await this.deps.usage.monthTotals(accounts.slice(from, from + CHUNK), new Date(month));
          const rollups = [...totals].map(([accountId, lookups]) => ({ accountId, monthStart: new Date(month), lookups }));
          if (rollups.length > 0) await this.deps.sender.send(rollups, this.deps.clock.now());
          sent += rollups.length;
        }
      }
    } catch (error) {
      // Everything goes again next time (a repeated total is the same event id, dropped by billing).
      for (const entry of batch) this.markDirty(entry.accountId, entry.monthStart);
      throw error;
    }
    if (sent > 0) this.logger.debug({ sent }, 'running month totals sent');
    return sent;
  }

  private markDirty(accountId: string, month: Date): void {
    this.dirty.set(`${accountId}|${month.toISOString()}`, { accountId, monthStart: month });
  }
}
