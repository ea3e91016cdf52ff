import {
  PoisonRecordError,
  UnavailableError,
  errorText,
  isDomainError,
  systemClock,
  type BatchOutcome,
  type Clock,
  type ConsumedBatch,
} from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { ClosingGate, CountedEvent, EventClaims, LedgerTarget } from './ledger-ports.js';
import { usageEventProblem } from './usage-event.validation.js';

export interface LedgerRoundResult extends BatchOutcome<UsageEvent> {
  /** Events counted (first occurrences of their ids, including a re-delivered round's own records). */
  counted: number;
  /** Records skipped because another record with the same id was counted. */
  duplicates: number;
}

/**
 * One write round of usage.lookup.v1 records of one partition (README "Counting exactly once"):
 * validate (poison → DLQ), claim the event ids, enter the closing gate, fold the counted events into
 * every target's counter documents and apply them (watermarks make a re-applied record a no-op),
 * leave the gate, tell the closer which accounts moved. Re-running a round after a crash at any
 * point ends with the same counters.
 */
export class LedgerBatchHandler {
  private readonly clock: Clock;

  constructor(
    private readonly deps: {
      claims: EventClaims;
      gate: ClosingGate;
      /** Asked at each round: a replay swap changes them. */
      targets: () => readonly LedgerTarget[];
      onCounted?: (events: readonly CountedEvent[]) => void;
      clock?: Clock;
    },
  ) {
    this.clock = deps.clock ?? systemClock;
  }

  async handle(batch: ConsumedBatch<UsageEvent>): Promise<LedgerRoundResult> {
    const now = this.clock.now();
    const poison: NonNullable<BatchOutcome<UsageEvent>['poison']> = [];
    const valid: CountedEvent[] = [];
    for (const consumed of batch.events) {
      const problem = usageEventProblem(consumed.event, now);
      if (problem !== null) {
        poison.push({ event: consumed, error: new PoisonRecordError(problem) });
        continue;
      }
      valid.push({
        event: consumed.event,
        id: consumed.event.meta!.id,
        time: consumed.event.meta!.time!,
        partition: batch.partition,
        offset: Number(consumed.offset),
      });
    }
    if (valid.length === 0) return { poison, counted: 0, duplicates: 0 };

    try {
      return await this.count(batch, valid, poison);
    } catch (error) {
      // Everything after validation is infrastructure (Redis, MongoDB): it must be retried until it
      // works, never dead-lettered — the consumer retries transient errors until shutdown.
      if (isDomainError(error)) throw error;
      throw new UnavailableError(`ledger round failed: ${errorText(error)}`, { cause: error });
    }
  }

  private async count(
    batch: ConsumedBatch<UsageEvent>,
    valid: CountedEvent[],
    poison: NonNullable<BatchOutcome<UsageEvent>['poison']>,
  ): Promise<LedgerRoundResult> {
    const first = await this.deps.claims.claim(valid);
    const counted = valid.filter((_, index) => first[index] === true);
    if (counted.length > 0) {
      const round = this.deps.gate.enter();
      try {
        const context = { partition: batch.partition, openFrom: round.openFrom };
        await Promise.all(
          this.deps.targets().map(async ({ store, fold }) => {
            const deltas = fold(counted, context);
            if (deltas.length > 0) await store.apply(batch.partition, deltas);
          }),
        );
      } finally {
        round.leave();
      }
      this.deps.onCounted?.(counted);
    }
    return { poison, counted: counted.length, duplicates: valid.length - counted.length };
  }
}
