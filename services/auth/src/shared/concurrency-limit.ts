/** Thrown when every slot is taken and the waiting line is full. */
export class ConcurrencyLimitExceeded extends Error {
  constructor() {
    super('concurrency limit reached and the queue is full');
  }
}

/**
 * A counting semaphore with a bounded waiting line: at most `maxConcurrent` tasks run, at most
 * `maxQueue` wait (first come, first served), anything beyond is refused at once. Bounds both
 * the CPU/memory a burst can take and how long callers pile up.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxQueue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxConcurrent) {
      if (this.waiting.length >= this.maxQueue) throw new ConcurrencyLimitExceeded();
      // The slot is handed over by release(), so `running` stays counted meanwhile.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
