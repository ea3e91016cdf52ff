import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, ConcurrencyLimitExceeded } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  it('runs at most maxConcurrent, queues maxQueue and refuses the rest', async () => {
    const limit = new ConcurrencyLimit(2, 1);
    let active = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      limit.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => releases.push(resolve));
        active--;
        return 'done';
      });
    const accepted = [task(), task(), task()];
    await expect(task()).rejects.toBeInstanceOf(ConcurrencyLimitExceeded);
    await Promise.resolve();
    expect(active).toBe(2);
    while (releases.length > 0 || active > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(Promise.all(accepted)).resolves.toEqual(['done', 'done', 'done']);
    expect(peak).toBe(2);
    // Slots are free again.
    await expect(limit.run(async () => 1)).resolves.toBe(1);
  });
});
