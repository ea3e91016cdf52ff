import { decisionCounts, deniedForQuota, type PendingReservation, type SettledReservation } from './quota-decision.js';
import { QuotaUnavailableError, monthlyCeiling, type QuotaDecision } from './quota.types.js';

const LAST_KNOWN_MAX = 10_000;
const DEGRADED_MAX = 100_000;

/**
 * The rule for reservations Redis did not decide (README.md, "Redis unavailable"): free keys fail
 * closed, paid keys fail open within the hard cap as this process last saw the account's counter.
 * Nothing is written for a grant: its request's usage event reaches Kafka like any other, and
 * stats' quota reconciler raises the counters to the rollups (docs/adr/0001-usage-ledger-durability.md).
 */
export class FailOpenRule {
  /** Last counter seen per account and month: the estimate for the cap and the headers. */
  private readonly lastKnown = new Map<string, { month: string; used: number }>();
  /** This outage's grants by account and request id, so a retry is answered alike and not granted again. */
  private readonly granted = new Map<string, QuotaDecision>();
  degraded = 0;
  refused = 0;

  remember(accountId: string, month: string, used: number): void {
    const known = this.lastKnown.get(accountId);
    // Several reservation calls are in flight at once and may answer out of order: a month's
    // counter only grows, so an older (smaller) answer arriving late changes nothing.
    if (known !== undefined && known.month === month && known.used > used) used = known.used;
    this.lastKnown.delete(accountId);
    this.lastKnown.set(accountId, { month, used });
    if (this.lastKnown.size > LAST_KNOWN_MAX) {
      const oldest = this.lastKnown.keys().next().value;
      if (oldest !== undefined) this.lastKnown.delete(oldest);
    }
  }

  /** Redis answers again: it decides retries from now on. */
  outageOver(): void {
    this.granted.clear();
  }

  /**
   * A grant of this outage given back (its work failed): it was never counted in Redis, so there is
   * nothing to give back there. Answers false for a grant this rule did not make.
   */
  forget(accountId: string, requestId: string, count: number): boolean {
    const id = `${accountId}\n${requestId}`;
    const decision = this.granted.get(id);
    if (decision === undefined) return false;
    this.granted.delete(id);
    const known = this.lastKnown.get(accountId);
    if (known !== undefined) known.used = Math.max(0, known.used - Math.min(count, decision.granted));
    return true;
  }

  apply(items: readonly PendingReservation[], cause: unknown): SettledReservation[] {
    const settled: SettledReservation[] = [];
    for (const item of items) {
      const { subject, count, partial, requestId } = item.request;
      if (!subject.paid) {
        this.refused++;
        settled.push({ error: new QuotaUnavailableError(undefined, { cause }) });
        continue;
      }
      const id = `${subject.accountId}\n${requestId}`;
      const retried = this.granted.get(id);
      if (retried !== undefined) {
        settled.push({ decision: Object.assign({}, retried, { replayed: true }) });
        continue;
      }
      const known = this.known(subject.accountId, item.period.month);
      const ceiling = monthlyCeiling(subject);
      const left = ceiling < 0 ? Number.POSITIVE_INFINITY : Math.max(0, ceiling - known);
      const granted = count <= left ? count : partial ? left : 0;
      const decision = decisionCounts(subject, item.period, granted, known + granted);
      decision.degraded = true;
      decision.at = item.now;
      if (granted === 0 && count > 0) deniedForQuota(decision, item);
      else if (granted > 0) {
        this.remember(subject.accountId, item.period.month, known + granted);
        if (this.granted.size < DEGRADED_MAX) this.granted.set(id, decision);
        this.degraded++;
      }
      settled.push({ decision });
    }
    return settled;
  }

  private known(accountId: string, month: string): number {
    const entry = this.lastKnown.get(accountId);
    return entry?.month === month ? entry.used : 0;
  }
}
