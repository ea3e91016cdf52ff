export interface TurnBatcherOptions {
  /** Most items per call (default 500). */
  maxBatch?: number;
  /** Calls in flight at once (default 1); items arriving meanwhile wait and go together. */
  maxInFlight?: number;
  /** Items waiting at most (default 20,000); beyond it `submit` rejects at once with BatchQueueFullError. */
  maxQueue?: number;
}

/** The queue is full: the batched dependency is too slow for the load. */
export class BatchQueueFullError extends Error {
  constructor(size: number) {
    super(`batch queue full (${size} waiting)`);
    this.name = 'BatchQueueFullError';
  }
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Items from many concurrent requests, sent to a dependency as a few batch calls: every item
 * submitted during one event-loop turn, plus whatever arrives while the calls in flight are out,
 * joins one call (up to `maxBatch`). With no load an item waits only for the end of the current
 * turn (setImmediate). bff-en uses it for quota reservations (one Redis script call decides a
 * batch, one by one, so the answers are exactly those of one call each) and for single lookups
 * (one BatchLookupCompact call per batch): a loaded API pays one round trip per few hundred
 * requests instead of one each.
 */
export class TurnBatcher<I, O> {
  private queue: Array<Waiting<I, O>> = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly maxQueue: number;
  private idle: Array<() => void> = [];
  /** Calls of `run` so far: what the coalescing tests count. */
  calls = 0;

  constructor(
    /** Must answer one output per input, in order; a rejection fails every item of the call. */
    private readonly run: (items: I[]) => Promise<O[]>,
    options: TurnBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxQueue = options.maxQueue ?? 20_000;
  }

  submit(item: I): Promise<O> {
    if (this.queue.length >= this.maxQueue) return Promise.reject(new BatchQueueFullError(this.queue.length));
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
        else waiting.reject(new Error('the batch call answered fewer items than asked'));
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
