import { describe, expect, it } from 'vitest';
import { systemClock } from '../time/clock.js';
import { ManualClock } from './manual-clock.js';

describe('ManualClock', () => {
  it('starts where told, advances and is set by hand', () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(clock.advance(90_000).toISOString()).toBe('2026-01-01T00:01:30.000Z');
    expect(clock.now().toISOString()).toBe('2026-01-01T00:01:30.000Z');
    clock.set(new Date('2027-06-01T12:00:00Z'));
    expect(clock.now().toISOString()).toBe('2027-06-01T12:00:00.000Z');
  });

  it('hands out copies, so a caller mutating a Date does not move the clock', () => {
    const clock = new ManualClock(new Date(0));
    clock.now().setTime(5_000);
    expect(clock.now().getTime()).toBe(0);
  });

  it('defaults to the current time; systemClock follows the real time', () => {
    const before = Date.now();
    const clock = new ManualClock();
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1_000);
  });
});
