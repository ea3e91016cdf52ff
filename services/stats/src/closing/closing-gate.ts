import type { ClosingGate } from '../ledger/ledger-ports.js';

/**
 * The closing boundary inside this process. Every ledger write round enters with the boundary
 * of the moment (`openFrom`) and leaves after its writes; `advance(to)` moves the boundary and
 * resolves once every round that entered with an older one has left. After that, no write
 * decided with the old boundary is still on its way, so the closer can read the hour it closes.
 *
 * One process: the boundary of other stats replicas is not moved (one closer per deployment).
 */
export class InProcessClosingGate implements ClosingGate {
  private boundary: number | undefined;
  /** Rounds in flight per boundary (ms) they entered with. */
  private readonly inFlight = new Map<number, number>();
  private waiters: Array<{ below: number; resolve: () => void }> = [];

  /** Unset until `open(from)`: a round before that is a wiring error, not a guess at the boundary. */
  constructor(openFrom?: Date) {
    if (openFrom) this.boundary = openFrom.getTime();
  }

  /** Sets the boundary at start-up (the persisted one); later moves go through advance(). */
  open(from: Date): void {
    this.boundary = from.getTime();
  }

  get openFrom(): Date {
    return new Date(this.current());
  }

  /** Rounds in flight right now (tests, metrics). */
  get roundsInFlight(): number {
    let total = 0;
    for (const count of this.inFlight.values()) total += count;
    return total;
  }

  enter(): { openFrom: Date; leave(): void } {
    const entered = this.current();
    this.inFlight.set(entered, (this.inFlight.get(entered) ?? 0) + 1);
    let left = false;
    return {
      openFrom: new Date(entered),
      leave: () => {
        // A second leave (a finally after a catch that already left) must not free another round.
        if (left) return;
        left = true;
        const remaining = (this.inFlight.get(entered) ?? 1) - 1;
        if (remaining > 0) this.inFlight.set(entered, remaining);
        else this.inFlight.delete(entered);
        this.wakeWaiters();
      },
    };
  }

  /**
   * Moves the boundary forward to `to` (never back) and waits until no round that entered with
   * a boundary before `to` is in flight. Calling it again with the same `to` just waits.
   */
  advance(to: Date): Promise<void> {
    const target = to.getTime();
    if (target > this.current()) this.boundary = target;
    if (!this.hasRoundsBelow(target)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ below: target, resolve }));
  }

  private current(): number {
    if (this.boundary === undefined) throw new Error('closing gate used before its boundary was loaded (start the closer first)');
    return this.boundary;
  }

  private hasRoundsBelow(limit: number): boolean {
    for (const [entered, count] of this.inFlight) if (entered < limit && count > 0) return true;
    return false;
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (this.hasRoundsBelow(waiter.below)) still.push(waiter);
      else waiter.resolve();
    }
    this.waiters = still;
  }
}
