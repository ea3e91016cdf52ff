import type { SiteVisit } from '@ipdata/proto/events/v1/visit';
import { UnavailableError, errorText, isTransientError } from '@ipdata/common';
import type { CounterStore } from '../counters/counter-delta.js';
import type { EventClaims } from '../ledger/ledger-ports.js';
import { scopesOf, visitFold, visitorSetName, type CountedVisit } from './visit-fold.js';
import type { UniqueVisitorStore } from './visit-ports.js';
import { validateVisit } from './visit.validation.js';

/** One decoded site.visit.v1 record of a write round. */
export interface VisitRecord {
  offset: number;
  event: SiteVisit;
}

export interface VisitRoundResult {
  /** Visits counted (first occurrences of their ids, including a re-delivered round's own records). */
  counted: number;
  /** Records skipped because another record with the same event id was counted. */
  duplicates: number;
  /** Records that can never be counted: the consumer moves them to the DLQ with the reason. */
  poison: Array<{ offset: number; reason: string }>;
}

/**
 * One write round of site.visit.v1 records of one partition, exactly once without transactions
 * (DESIGN: the same scheme as the usage ledger): validate, claim the event ids (a claim remembers
 * the record's position, so the same record delivered again after a crash is still "first"),
 * apply the page view counters (per-document watermarks make a re-applied record a no-op), then
 * add the visitors to their HyperLogLog sets, which is idempotent by itself. A crash anywhere
 * re-delivers the round from the last committed offset and ends with the same numbers.
 */
export class VisitBatchHandler {
  constructor(
    private readonly deps: {
      /** With the visits' own key prefix, so a visit id never collides with a usage event id. */
      claims: EventClaims;
      /** visit_rollups. */
      store: CounterStore;
      visitors: UniqueVisitorStore;
    },
  ) {}

  async handle(partition: number, records: readonly VisitRecord[]): Promise<VisitRoundResult> {
    const poison: VisitRoundResult['poison'] = [];
    const valid: CountedVisit[] = [];
    for (const record of records) {
      const checked = validateVisit(record.event);
      if (checked.ok) valid.push({ visit: checked.visit, offset: record.offset });
      else poison.push({ offset: record.offset, reason: checked.reason });
    }
    if (valid.length === 0) return { counted: 0, duplicates: 0, poison };

    let counted: CountedVisit[];
    try {
      counted = await this.count(partition, valid);
    } catch (error) {
      // Everything after validation is infrastructure (Redis, FerretDB): a failure there must be
      // retried until it works, never turn valid visits into DLQ records. The consumer retries
      // UnavailableError without limit; any other error it would dead-letter after a few attempts.
      if (isTransientError(error)) throw error;
      throw new UnavailableError(`visit round failed: ${errorText(error)}`, { cause: error });
    }
    return { counted: counted.length, duplicates: valid.length - counted.length, poison };
  }

  /** Claims, page view counters, visitor sets; returns the visits counted as first occurrences. */
  private async count(partition: number, valid: readonly CountedVisit[]): Promise<CountedVisit[]> {
    const first = await this.deps.claims.claim(valid.map(({ visit, offset }) => ({ id: visit.id, partition, offset })));
    const counted = valid.filter((_, index) => first[index] === true);
    if (counted.length === 0) return counted;
    await this.deps.store.apply(partition, visitFold(counted, partition));
    await this.deps.visitors.add(
      counted.flatMap(({ visit }) =>
        scopesOf(visit).map((scope) => ({ set: visitorSetName(visit.site, visit.time, scope), visitorId: visit.visitorId })),
      ),
    );
    return counted;
  }
}
