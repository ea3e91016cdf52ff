import { once } from 'node:events';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerThreadPriority } from './thread-priority.js';

describe('lowerThreadPriority', () => {
  it('lowers the calling worker thread alone, not the process main thread', async () => {
    const mainNice = getPriority(process.pid);
    const url = new URL('./thread-priority.ts', import.meta.url).href;
    const worker = new Worker(
      `import(${JSON.stringify('tsx/esm/api')}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); })` +
        `.then(({ lowerThreadPriority }) => require('node:worker_threads').parentPort.postMessage(lowerThreadPriority(${mainNice + 5})))` +
        // Kept alive until terminated: a thread that has exited has no priority to read (ESRCH,
        // seen when a busy machine handled the message after the worker had finished).
        `.then(() => setInterval(() => {}, 60_000))`,
      { eval: true },
    );
    const [tid] = (await once(worker, 'message')) as [number | undefined];
    try {
      expect(tid).toBeGreaterThan(0);
      // getpriority(2) given a thread id reads that thread's value (Linux).
      expect(getPriority(tid)).toBe(mainNice + 5);
      expect(getPriority(process.pid)).toBe(mainNice);
    } finally {
      await worker.terminate();
    }
  });

  it('refuses a value outside 0..19', () => {
    expect(() => lowerThreadPriority(-1)).toThrow(RangeError);
    expect(() => lowerThreadPriority(20)).toThrow(RangeError);
  });
});
