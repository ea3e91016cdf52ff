import { describe, expect, it } from 'vitest';
import { TurnBatcher, BatchQueueFullError } from './turn-batcher.js';

/** A store stand-in that answers after `delayMs`, recording the batches it was given. */
function recordingRun(delayMs: number) {
  const batches: number[][] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return items.map((item) => item * 10);
  };
  return { batches, run };
}

describe('TurnBatcher (one store call per event-loop turn)', () => {
  it('sends everything submitted in one turn as one call, answers in order', async () => {
    const { batches, run } = recordingRun(1);
    const batcher = new TurnBatcher(run);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => batcher.submit(i)));
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i * 10));
    expect(batcher.calls).toBe(1);
    expect(batches[0]).toHaveLength(200);
  });

  it('gathers what arrives while a call is out into the next call, and splits at maxBatch', async () => {
    const { batches, run } = recordingRun(20);
    const batcher = new TurnBatcher(run, { maxBatch: 50 });
    const first = batcher.submit(0);
    await new Promise((resolve) => setTimeout(resolve, 5)); // the first call is out now
    const rest = Array.from({ length: 120 }, (_, i) => batcher.submit(i + 1));
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({ length: 121 }, (_, i) => i * 10));
    expect(batches.map((batch) => batch.length)).toEqual([1, 50, 50, 20]);
  });

  it('fails every reservation of a failed call, refuses beyond maxQueue, drains', async () => {
    const batcher = new TurnBatcher<number, number>(() => Promise.reject(new Error('redis down')), { maxQueue: 2 });
    const a = batcher.submit(1);
    const b = batcher.submit(2);
    await expect(batcher.submit(3)).rejects.toBeInstanceOf(BatchQueueFullError);
    await expect(a).rejects.toThrow('redis down');
    await expect(b).rejects.toThrow('redis down');
    await batcher.drained();
    const short = new TurnBatcher<number, number>(async () => [1]);
    const [x, y] = await Promise.allSettled([short.submit(1), short.submit(2)]);
    expect(x).toEqual({ status: 'fulfilled', value: 1 });
    expect(y.status).toBe('rejected');
  });
});
