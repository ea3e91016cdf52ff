import { randomBytes } from 'node:crypto';
import { errorText } from '@ipdata/common';
import { LeaseKeeper } from './lease-keeper.js';
import { runJob, type JobRunnerDeps } from './job-runner.js';

export interface BulkWorkerOptions {
  /** Jobs this process works on at once. */
  concurrency: number;
  leaseMs: number;
  pollIntervalMs: number;
  /** Names this process in claims and logs (host name, pod name); a random suffix is added per claim. */
  workerId: string;
  /** Told after a run of a job on this process ended (finished, handed back or lost): waiters re-read the job. */
  onRunEnded?: (jobId: string) => void;
}

/**
 * Takes queued jobs (and jobs of processes whose lease expired) and runs them, up to
 * `concurrency` at once. Several processes can share one collection: claims are exclusive per
 * lease epoch (see MongoBulkJobRepository). Polls every `pollIntervalMs`; `wake()` (a job was
 * submitted here, a job ended) looks at once.
 */
export class BulkWorker {
  private readonly active = new Map<string, Promise<void>>();
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private pendingWake = false;

  constructor(
    private readonly deps: JobRunnerDeps,
    private readonly options: BulkWorkerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.loop = this.run();
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  /** Stops taking jobs; running ones finish their current chunk, checkpoint and are handed back. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.all(this.active.values());
  }

  /** Ids of the jobs this process works on right now. */
  get activeJobs(): string[] {
    return [...this.active.keys()];
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.pendingWake = false;
      try {
        await this.fill();
      } catch (error) {
        this.deps.logger.warn({ reason: errorText(error) }, 'bulk worker could not look for jobs');
      }
      await this.sleep();
    }
  }

  private async fill(): Promise<void> {
    const { repository, clock } = this.deps;
    if (this.active.size >= this.options.concurrency) return;
    const candidates = await repository.findClaimable(clock.now(), this.options.concurrency * 4);
    for (const candidate of candidates) {
      if (this.stopped || this.active.size >= this.options.concurrency) return;
      if (this.active.has(candidate.id)) continue;
      const token = `${this.options.workerId}:${randomBytes(6).toString('base64url')}`;
      const now = clock.now();
      const claimed = await repository.claim(candidate, token, now, new Date(now.getTime() + this.options.leaseMs));
      if (!claimed) continue;
      this.deps.logger.info(
        { jobId: claimed.id, epoch: claimed.leaseEpoch, resumeAt: claimed.nextChunk, token },
        claimed.nextChunk > 0 ? 'bulk job resumed from its checkpoint' : 'bulk job started',
      );
      const keeper = new LeaseKeeper(
        { jobId: claimed.id, epoch: claimed.leaseEpoch, token },
        repository,
        clock,
        this.options.leaseMs,
        this.deps.logger,
      );
      keeper.start();
      const running = runJob(claimed, keeper, this.deps, () => this.stopped)
        .then(() => undefined)
        .catch((error: unknown) => {
          // Left running: its lease expires and a process takes it again from the checkpoint.
          this.deps.logger.error({ err: error, jobId: claimed.id, reason: errorText(error) }, 'bulk job run crashed');
        })
        .finally(() => {
          keeper.stop();
          this.active.delete(claimed.id);
          this.options.onRunEnded?.(claimed.id);
          this.wake();
        });
      this.active.set(claimed.id, running);
    }
  }

  private sleep(): Promise<void> {
    if (this.stopped || this.pendingWake) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollIntervalMs);
      this.wakeUp = done;
    });
  }
}
