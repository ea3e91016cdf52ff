import { errorText, type Logger } from '@ipdata/common';
import { decisionCounts, deniedForQuota, type PendingReservation, type SettledReservation } from './quota-decision.js';
import type { JournalEntry, QuotaJournal } from './quota-journal.js';
import { QuotaUnavailableError, monthlyCeiling, type QuotaDecision } from './quota.types.js';

const LAST_KNOWN_MAX = 10_000;
const DEGRADED_MAX = 100_000;

/**
 * The rule for reservations Redis did not decide (README.md, "Quotas"): free keys fail closed, paid
 * keys fail open within the hard cap as this process last saw the account's counter, and every
 * such grant is journalled before it is answered. A grant that cannot be journalled is refused.
 */
export class FailOpenRule {
  /** Last counter seen per account and month: the estimate for the cap and the headers. */
  private readonly lastKnown = new Map<string, { month: string; used: number }>();
  /** This outage's grants by account and request id, so a retry is answered alike, not journalled again. */
  private readonly granted = new Map<string, QuotaDecision>();
  journalled = 0;
  refused = 0;

  constructor(
    private readonly journal: QuotaJournal,
    private readonly logger: Logger,
  ) {}

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

  /** Redis holds every journalled grant again and answers their retries itself. */
  outageOver(): void {
    this.granted.clear();
  }

  /** `call`: the store call the items were sent in (in that order), for API requests; none for keyed ones. */
  async apply(items: readonly PendingReservation[], cause: unknown, call?: string): Promise<SettledReservation[]> {
    const settled: SettledReservation[] = [];
    const entries: JournalEntry[] = [];
    const journalledAt: number[] = [];
    for (const [index, item] of items.entries()) {
      const { subject, count, partial, requestId } = item.request;
      if (!subject.paid) {
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
        entries.push({
          requestId,
          accountId: subject.accountId,
          keyId: subject.keyId,
          count: granted,
          at: item.now.toISOString(),
          ...(call === undefined ? {} : { call, index }),
        });
        journalledAt.push(settled.length);
      }
      settled.push({ decision });
    }
    try {
      await this.journal.append(entries);
      this.journalled += entries.length;
    } catch (journalError) {
      // A grant that cannot be journalled could never be counted: refuse it instead.
      this.logger.error({ reason: errorText(journalError) }, 'cannot write the quota journal: refusing paid requests too');
      for (const index of journalledAt) settled[index] = { error: new QuotaUnavailableError(undefined, { cause: journalError }) };
      for (const entry of entries) this.granted.delete(`${entry.accountId}\n${entry.requestId}`);
    }
    this.refused += settled.filter((entry) => 'error' in entry).length;
    return settled;
  }

  private known(accountId: string, month: string): number {
    const entry = this.lastKnown.get(accountId);
    return entry?.month === month ? entry.used : 0;
  }
}
