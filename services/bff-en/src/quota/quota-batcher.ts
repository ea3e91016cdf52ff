export interface QuotaBatcherOptions {
  /** Most reservations per script call (bounds the script's run time inside Redis). */
  maxBatch?: number;
  /** Script calls in flight at once; reservations arriving meanwhile wait and go together. */
  maxInFlight?: number;
  /** Reservations waiting at most; beyond it `submit` rejects at once (the caller applies the fail rule). */
  maxQueue?: number;
}

/** The queue is full: Redis is too slow for the load. */
export class QuotaQueueFullError extends Error {
  constructor(size: number) {
    super(`quota reservation queue full (${size} waiting)`);
    this.name = 'QuotaQueueFullError';
  }
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Reservations from many concurrent requests, decided by a few script calls: every reservation
 * made during one event-loop turn, plus whatever arrives while the previous call is still out,
 * joins one call (up to `maxBatch`). The store decides a call's reservations one after the other
 * inside one Lua script, so the answers are exactly those of one call each; only the round trips
 * are shared. With no load a reservation waits only for the end of the current turn.
 */
export class QuotaBatcher<I, O> {
  private queue: Array<Waiting<I, O>> = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly maxQueue: number;
  private idle: Array<() => void> = [];
  /** Calls of `run` so far (one script call each): what the coalescing test counts. */
  calls = 0;

  constructor(
    /** Must answer one output per input, in order; a rejection fails every reservation of the call. */
    private readonly run: (items: I[]) => Promise<O[]>,
    options: QuotaBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxQueue = options.maxQueue ?? 20_000;
  }

  submit(item: I): Promise<O> {
    if (this.queue.length >= this.maxQueue) return Promise.reject(new QuotaQueueFullError(this.queue.length));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once nothing waits and nothing is in flight (shutdown). */
  drained(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
      void this.send(batch);
    }
  };

  private async send(batch: Array<Waiting<I, O>>): Promise<void> {
    this.inFlight++;
    this.calls++;
    try {
      const results = await this.run(batch.map((waiting) => waiting.item));
      for (let i = 0; i < batch.length; i++) {
        const waiting = batch[i] as Waiting<I, O>;
        if (i < results.length) waiting.resolve(results[i] as O);
        else waiting.reject(new Error('quota store answered fewer reservations than asked'));
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.inFlight--;
      // Whatever queued while the call was out goes now, as one call.
      if (this.queue.length > 0) this.schedule();
      else if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }
}
