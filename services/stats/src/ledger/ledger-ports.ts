import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { CounterDocDelta, CounterStore } from '../counters/counter-delta.js';

/** A ledger record that passed validation and is the first occurrence of its event id. */
export interface CountedEvent {
  event: UsageEvent;
  /** meta.id */
  id: string;
  /** meta.time */
  time: Date;
  partition: number;
  offset: number;
}

/**
 * Port: de-duplication by event id that survives a crash between "claimed" and "counted".
 * A claim stores the record's position (`partition:offset`): the same record delivered again
 * finds its own claim and is counted (its counter documents' watermarks make that a no-op if it
 * was counted before); another record with the same id is a duplicate.
 */
export interface EventClaims {
  /** For each record, true when it is the first occurrence of its id (in input order). */
  claim(records: ReadonlyArray<{ id: string; partition: number; offset: number }>): Promise<boolean[]>;
}

/**
 * The closing boundary (closing/): hours before `openFrom` are closed or closing for billing.
 * The ledger handler enters the gate for each write round and leaves it after its writes, so the
 * closer can advance the boundary only between rounds: an event of an earlier hour counted after
 * the boundary moved is "late" and carried into the hour `openFrom` (still open).
 */
export interface ClosingGate {
  enter(): { openFrom: Date; leave(): void };
}

/** A fold turns one write round of counted events into counter document deltas for one store. */
export type LedgerFold = (events: readonly CountedEvent[], context: { partition: number; openFrom: Date }) => CounterDocDelta[];

/** Where one fold's deltas go. The handler asks for its targets at each round (a replay swaps them). */
export interface LedgerTarget {
  store: CounterStore;
  fold: LedgerFold;
}
