import { describe, expect, it, vi } from 'vitest';
import { IdleHeld } from './idle-held.js';

describe('IdleHeld', () => {
  // Fake timers: with real 40 ms sleeps against an 80 ms idle time, a loaded CI machine overslept
  // and the value was dropped mid-test.
  it('opens once while used, drops the value after the idle time and opens again on the next use', async () => {
    vi.useFakeTimers();
    try {
      let opens = 0;
      let drops = 0;
      const held = new IdleHeld(
        async () => ({ n: ++opens }),
        80,
        () => drops++,
      );
      expect(held.held).toBe(false);
      const first = await held.get();
      await vi.advanceTimersByTimeAsync(60);
      expect(await held.get()).toBe(first); // used within the idle time: kept, timer restarted
      await vi.advanceTimersByTimeAsync(60);
      expect(await held.get()).toBe(first);
      expect([opens, drops]).toEqual([1, 0]);
      await vi.advanceTimersByTimeAsync(81);
      expect([held.held, drops]).toEqual([false, 1]);
      expect(await held.get()).toEqual({ n: 2 });
      held.release();
      expect(drops).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep a failed open', async () => {
    let attempt = 0;
    const held = new IdleHeld(async () => {
      attempt++;
      if (attempt === 1) throw new Error('source file missing');
      return attempt;
    }, 1_000);
    await expect(held.get()).rejects.toThrow('source file missing');
    await Promise.resolve();
    expect(held.held).toBe(false);
    expect(await held.get()).toBe(2);
    held.release();
  });
});
