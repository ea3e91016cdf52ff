import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicTask, startupStep } from './periodic-task.js';

function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PeriodicTask', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval after start and not after shutdown', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = PeriodicTask.fromConfig(
      { name: 'sweeper', intervalMs: 1_000, run: async () => runs++ },
      pino({ level: 'silent' }),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(0);
    await task.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(3);
    await task.shutdown();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });

  it('logs a failed run and keeps running', async () => {
    vi.useFakeTimers();
    const { logger, lines } = recordingLogger();
    let runs = 0;
    const task = PeriodicTask.fromConfig(
      {
        name: 'relay',
        intervalMs: 100,
        run: async () => {
          runs++;
          if (runs === 1) throw new Error('kafka down');
        },
      },
      logger,
    );
    await task.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'relay failed', task: 'relay', reason: 'kafka down' });
    await task.shutdown();
  });

  it('never overlaps runs: runNow during a run waits for it', async () => {
    const gate = deferred();
    let started = 0;
    const task = PeriodicTask.fromConfig(
      {
        name: 'slow',
        intervalMs: 60_000,
        run: async () => {
          started++;
          await gate.promise;
        },
      },
      pino({ level: 'silent' }),
    );
    const first = task.runNow();
    const second = task.runNow();
    expect(started).toBe(1);
    gate.resolve();
    await Promise.all([first, second]);
    expect(started).toBe(1);
    await task.runNow();
    expect(started).toBe(2);
  });

  it('shutdown waits for a run in progress', async () => {
    const gate = deferred();
    const events: string[] = [];
    const task = PeriodicTask.fromConfig(
      {
        name: 'slow',
        intervalMs: 60_000,
        run: async () => {
          await gate.promise;
          events.push('run finished');
        },
      },
      pino({ level: 'silent' }),
    );
    await task.start();
    void task.runNow();
    const stopped = task.shutdown().then(() => events.push('shut down'));
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]);
    gate.resolve();
    await stopped;
    expect(events).toEqual(['run finished', 'shut down']);
  });

  it('refuses a non-positive interval', () => {
    expect(() => PeriodicTask.fromConfig({ name: 'x', intervalMs: 0, run: async () => 1 }, pino({ level: 'silent' }))).toThrow(
      /intervalMs must be positive/,
    );
  });
});

describe('startupStep', () => {
  it('runs its work on start and nothing on shutdown', async () => {
    const events: string[] = [];
    const step = startupStep('indexes', async () => events.push('created'));
    expect(step.name).toBe('indexes');
    await step.start();
    await step.shutdown();
    expect(events).toEqual(['created']);
  });

  it('fails the start when its work fails', async () => {
    await expect(startupStep('topics', () => Promise.reject(new Error('no broker'))).start()).rejects.toThrow('no broker');
  });
});
