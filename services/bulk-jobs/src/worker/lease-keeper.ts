import type { Clock, Logger } from '@ipdata/common';
import { errorText } from '@ipdata/common';
import type { BulkJobRepository, Lease } from '../jobs/bulk-job.ports.js';

/**
 * Keeps one job's lease alive while this process works on it and tells the worker when it must
 * stop writing. Another process takes a job over once `leaseExpiresAt` (stored) has passed; this
 * process considers the job its own only until two thirds of a lease after its last confirmed
 * write, so it stops before anyone may take over, even with some clock skew and a slow write.
 * Every write of the job goes through `write()`, one at a time: a heartbeat and a checkpoint of
 * the same document never race (FerretDB would lose one of them).
 */
export class LeaseKeeper {
  private ownedUntil: number;
  private lostReason: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly lease: Lease,
    private readonly repository: BulkJobRepository,
    private readonly clock: Clock,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {
    this.ownedUntil = clock.now().getTime() + this.safeSpan();
  }

  start(): void {
    this.timer = setInterval(() => void this.heartbeat(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether this process may still write the job (result file and document). */
  get held(): boolean {
    return this.lostReason === undefined && this.clock.now().getTime() < this.ownedUntil;
  }

  get lost(): string | undefined {
    if (this.lostReason) return this.lostReason;
    return this.clock.now().getTime() < this.ownedUntil ? undefined : 'lease ran out';
  }

  /** Runs a lease-filtered write that also extends the lease; false (and the lease lost) when it matched nothing. */
  write(operation: (leaseExpiresAt: Date) => Promise<boolean>): Promise<boolean> {
    const next = this.queue.then(async () => {
      if (!this.held) return false;
      const issuedAt = this.clock.now().getTime();
      const matched = await operation(new Date(issuedAt + this.leaseMs));
      if (matched) this.ownedUntil = issuedAt + this.safeSpan();
      else this.lostReason ??= 'the job was taken over by another process';
      return matched;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.write((until) => this.repository.extendLease(this.lease, until));
    } catch (error) {
      // A failed heartbeat is retried on the next tick; `held` turns false on its own if they keep failing.
      this.logger.warn({ jobId: this.lease.jobId, reason: errorText(error) }, 'bulk job heartbeat failed');
    }
  }

  private safeSpan(): number {
    return Math.floor((this.leaseMs * 2) / 3);
  }
}
