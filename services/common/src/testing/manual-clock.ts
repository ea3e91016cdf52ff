import type { Clock } from '../time/clock.js';

/** A clock tests set and advance by hand; the code under test reads it wherever it needs "now". */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date): void {
    this.current = date.getTime();
  }

  /** Moves time forward (or back, with a negative value) and returns the new "now". */
  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}
