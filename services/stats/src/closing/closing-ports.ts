/**
 * What closing needs from storage and Kafka (implemented in src/adapters/). The domain decides
 * when and what to close; the adapters know the collections and the event encoding.
 */

/** The persisted boundary (`stats_state`, `_id: 'closing'`). */
export interface ClosingState {
  /** First hour not closed: later usage belongs to open hours. */
  openFrom: Date;
  /** First hour whose closed records are not all written yet (`closedTo < openFrom` after a crash between steps). */
  closedTo: Date;
}

export interface ClosingStateStore {
  /** The stored state; on the very first start both hours are `initial`. */
  loadOrCreate(initial: Date): Promise<ClosingState>;
  /** Compare-and-set `openFrom: from → to`; returns the state stored afterwards (whoever won). */
  advanceOpenFrom(from: Date, to: Date): Promise<ClosingState>;
  /** Compare-and-set `closedTo: from → to`; returns the state stored afterwards. */
  advanceClosedTo(from: Date, to: Date): Promise<ClosingState>;
}

/** Billable (PUBLIC_API) lookups per account for one hour, as the closer must bill them. */
export interface ClosedUsageSource {
  hourTotals(hour: Date): Promise<Map<string, number>>;
}

export type ClosedPeriod = 'hour' | 'month';

export interface ClosedRecord {
  period: ClosedPeriod;
  accountId: string;
  periodStart: Date;
  lookups: number;
}

/** `usage_closed`: one record per (account, hour) and per (account, month), each with its event. */
export interface ClosedRecords {
  /**
   * Inserts the record with its UsageRollup in the outbox unless one exists for the same
   * (period, account, start): exactly once, however often a closing run is repeated. Returns
   * the record id when inserted now, null when it existed.
   */
  insertIfAbsent(record: ClosedRecord, now: Date): Promise<string | null>;
  /** Σ closed hour records per account with periodStart in [from, to). */
  hourSums(from: Date, to: Date): Promise<Map<string, number>>;
}

/** Sends pending outbox events of a record now (OutboxRelay.publishPending); never throws. */
export interface PendingPublisher {
  publishPending(id: string): Promise<boolean>;
}

/** The running month totals (Σ PUBLIC_API lookups of the month's days so far). */
export interface LiveUsageSource {
  monthTotals(accountIds: readonly string[], monthStart: Date): Promise<Map<string, number>>;
  /** Accounts with PUBLIC_API usage in the hour starting at `hour`. */
  accountsWithUsage(hour: Date): Promise<string[]>;
}

/** Sends MONTH `closed = false` rollups (running totals; a later one supersedes an earlier one). */
export interface RunningTotalSender {
  send(totals: ReadonlyArray<{ accountId: string; monthStart: Date; lookups: number }>, now: Date): Promise<void>;
}
