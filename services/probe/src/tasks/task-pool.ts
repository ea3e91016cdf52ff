import { setTimeout as sleep } from 'node:timers/promises';
import { UnavailableError } from '@ipdata/common';

/** Why a running task was aborted (AbortSignal.reason). */
export type AbortReason = 'timeout' | 'stopped';

/**
 * At most `capacity` tasks at once. The consumer waits for a free slot before it accepts the next
 * task (so a full worker leaves further tasks in Kafka for its site's other workers), then
 * launches the task and returns: the partition is not held for the whole trace. `close()` (on
 * shutdown) refuses new tasks, aborts the running ones with reason 'stopped' and waits until each
 * has ended (child gone, FAILED published).
 */
export class TaskPool {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly waiters = new Set<() => void>();
  /** Task ids accepted recently: a re-delivered or re-sent task is not run twice by this process. */
  private readonly recent = new Set<string>();
  private closed = false;

  constructor(
    readonly capacity: number,
    private readonly options: { keepAliveMs?: number; rememberTasks?: number } = {},
  ) {}

  get size(): number {
    return this.running.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether this process accepted the task already (since start, within the last `rememberTasks`). */
  seen(taskId: string): boolean {
    return this.recent.has(taskId);
  }

  /**
   * Resolves when a slot is free, calling `keepAlive` every keepAliveMs while it waits (the
   * consumer's group heartbeat). Throws a transient error once the pool is closed, so the record
   * stays uncommitted and another worker (or this one after a restart) gets it.
   */
  async waitForSlot(keepAlive: () => Promise<void>): Promise<void> {
    for (;;) {
      if (this.closed) throw new UnavailableError('the probe worker is stopping');
      if (this.running.size < this.capacity) return;
      let wake: () => void = () => undefined;
      const freed = new Promise<void>((resolve) => {
        wake = resolve;
        this.waiters.add(resolve);
      });
      const keepAliveMs = this.options.keepAliveMs ?? 3_000;
      const ac = new AbortController();
      await Promise.race([freed, sleep(keepAliveMs, undefined, { signal: ac.signal }).catch(() => undefined)]);
      ac.abort();
      this.waiters.delete(wake);
      if (!this.closed && this.running.size >= this.capacity) await keepAlive();
    }
  }

  /** Starts a task in a free slot (call waitForSlot first); `run` gets the signal that stops it. */
  launch(taskId: string, run: (signal: AbortSignal) => Promise<void>): void {
    if (this.closed) throw new UnavailableError('the probe worker is stopping');
    this.remember(taskId);
    const controller = new AbortController();
    const done = run(controller.signal)
      .catch(() => undefined)
      .finally(() => {
        this.running.delete(taskId);
        for (const wake of this.waiters) wake();
      });
    this.running.set(taskId, { controller, done });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiters) wake();
    const runs = [...this.running.values()];
    for (const { controller } of runs) controller.abort('stopped' satisfies AbortReason);
    await Promise.all(runs.map((entry) => entry.done));
  }

  /** Marks a task as handled by this process (run or refused): a second delivery is skipped. */
  remember(taskId: string): void {
    this.recent.add(taskId);
    const limit = this.options.rememberTasks ?? 10_000;
    if (this.recent.size > limit) this.recent.delete(this.recent.values().next().value as string);
  }
}
