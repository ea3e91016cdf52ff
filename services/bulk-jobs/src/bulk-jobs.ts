import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { Readable } from 'node:stream';
import {
  DeadlineExceededError,
  FailedPreconditionError,
  NotFoundError,
  PeriodicTask,
  systemClock,
  type Clock,
  type Component,
  type Logger,
  type MongoConnection,
} from '@ipdata/common';
import { MongoBulkJobRepository } from './adapters/mongo/bulk-job.repository.js';
import { JobFiles } from './files/job-files.js';
import { writeJobInput } from './input/input-intake.js';
import { FINISHED_STATES, type BulkJob, type BulkJobOwner, type InputFormat, type ResultFormat } from './jobs/bulk-job.js';
import type { BulkJobRepository, ChunkProcessor, StoredBulkJob } from './jobs/bulk-job.ports.js';
import { toBulkJob } from './jobs/bulk-job.view.js';
import { BulkWorker } from './worker/bulk-worker.js';
import type { JobRunnerDeps } from './worker/job-runner.js';

export interface BulkJobsConfig {
  /** The service's Mongo connection; jobs live in `<collectionPrefix>_jobs` and `<collectionPrefix>_job_claims`. */
  mongo: MongoConnection;
  /**
   * Default `bulk`. Services that share a database (every service's default `ipdata` under
   * `make up`) need their own: two engines on one collection would run each other's jobs with
   * the wrong processor.
   */
  collectionPrefix?: string;
  /** Job files: `<directory>/<jobId>/input` and `result.<csv|ndjson>`. Replicas must share it. */
  directory: string;
  processor: ChunkProcessor;
  /** Data lines per upload (blank lines and a CSV header do not count). Default 1,000,000. */
  maxLines?: number;
  /** Longest accepted line. Default 4,096 bytes. */
  maxLineBytes?: number;
  /** Largest accepted upload. Default 256 MiB. */
  maxInputBytes?: number;
  /** Lines per processor call (and per requestId). Default 1,000; fixed per job at submit. */
  chunkSize?: number;
  /** Jobs worked on at once by this process. Default 1. */
  concurrency?: number;
  /** A crashed process's job is taken over this long after its last heartbeat. Default 30 s. */
  leaseMs?: number;
  /** How often an idle worker looks for jobs. Default 1 s. */
  pollIntervalMs?: number;
  /** A job and its files are deleted this long after it ended (or was created, if it never ran). Default 7 days. */
  ttlMs?: number;
  /** How often expired jobs are deleted. Default 1 h. */
  sweepIntervalMs?: number;
  /** Attempts per chunk while the processor fails with a transient error. Default 6 (about 30 s). */
  chunkAttempts?: number;
  /** Whether this process runs jobs (false: submit/get/download only). Default true. */
  runWorker?: boolean;
  /** Names this process in claims and logs. Default `<hostname>:<pid>`. */
  workerId?: string;
}

export interface SubmitOptions {
  resultFormat: ResultFormat;
  /** Default `auto` (decided from the first non-blank line). */
  inputFormat?: InputFormat;
  /** Per-job settings handed to the processor with the job (key id, field filter, language...). Strings only. */
  context?: Record<string, string>;
  /** A lower line limit for this upload than the engine's `maxLines` (a caller's per-user limit); same `too_many_lines` refusal. */
  maxLines?: number;
}

export interface WaitOptions {
  /** Give up after this long: DeadlineExceededError reason `job_wait_timeout` (the job goes on). */
  timeoutMs: number;
  /** How often the job is re-read when no event of this process says it ended (a job another replica runs). Default `pollIntervalMs`. */
  pollIntervalMs?: number;
}

export interface BulkResult {
  job: BulkJob;
  stream: Readable;
  /** Bytes the stream will deliver (Content-Length). */
  size: number;
  contentType: string;
  fileName: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CONTENT_TYPES: Record<ResultFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/**
 * The bulk job engine: `submit` streams an upload into a job, a worker processes jobs chunk by
 * chunk through the caller's `ChunkProcessor` with checkpoints in MongoDB, `get` and
 * `openResult` serve the owner. Register it with the service's Lifecycle after the
 * MongoConnection (it stops first: running jobs checkpoint and are handed back).
 */
export class BulkJobs implements Component {
  readonly name = 'bulk-jobs';
  private readonly files: JobFiles;
  private readonly worker: BulkWorker | undefined;
  private readonly sweeper: PeriodicTask;
  private readonly settings: Required<Omit<BulkJobsConfig, 'mongo' | 'processor' | 'directory' | 'collectionPrefix'>>;
  /** 'ended' with the job id after each run of a job on this process: wakes `waitForEnd` at once. */
  private readonly runs = new EventEmitter();

  private constructor(
    private readonly repository: BulkJobRepository,
    config: BulkJobsConfig,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.files = new JobFiles(config.directory);
    this.settings = {
      maxLines: config.maxLines ?? 1_000_000,
      maxLineBytes: config.maxLineBytes ?? 4096,
      maxInputBytes: config.maxInputBytes ?? 256 * 1024 * 1024,
      chunkSize: config.chunkSize ?? 1000,
      concurrency: config.concurrency ?? 1,
      leaseMs: config.leaseMs ?? 30_000,
      pollIntervalMs: config.pollIntervalMs ?? 1000,
      ttlMs: config.ttlMs ?? 7 * DAY_MS,
      sweepIntervalMs: config.sweepIntervalMs ?? 60 * 60 * 1000,
      chunkAttempts: config.chunkAttempts ?? 6,
      runWorker: config.runWorker ?? true,
      workerId: config.workerId ?? `${hostname()}:${process.pid}`,
    };
    const deps: JobRunnerDeps = {
      repository,
      files: this.files,
      processor: config.processor,
      clock,
      logger,
      ttlMs: this.settings.ttlMs,
      chunkAttempts: this.settings.chunkAttempts,
      retryMaxDelayMs: 10_000,
    };
    const { concurrency, leaseMs, pollIntervalMs, workerId } = this.settings;
    // Waiters of many jobs may listen at once (one per HTTP request waiting for its job).
    this.runs.setMaxListeners(0);
    const onRunEnded = (jobId: string): void => void this.runs.emit('ended', jobId);
    this.worker = this.settings.runWorker
      ? new BulkWorker(deps, { concurrency, leaseMs, pollIntervalMs, workerId, onRunEnded })
      : undefined;
    this.sweeper = PeriodicTask.fromConfig(
      { name: 'bulk-jobs-sweeper', intervalMs: this.settings.sweepIntervalMs, run: () => this.sweepExpired() },
      logger,
    );
  }

  static fromConfig(config: BulkJobsConfig, logger: Logger, clock: Clock = systemClock): BulkJobs {
    return new BulkJobs(
      new MongoBulkJobRepository(config.mongo.connection, config.collectionPrefix ?? 'bulk'),
      config,
      logger.child({ module: 'bulk-jobs' }),
      clock,
    );
  }

  async start(): Promise<void> {
    await this.files.ensureDirectory();
    await this.repository.ensureIndexes();
    this.worker?.start();
    await this.sweeper.start();
  }

  async shutdown(): Promise<void> {
    await this.sweeper.shutdown();
    await this.worker?.shutdown();
  }

  /**
   * Streams `input` into a new queued job. Throws InvalidArgumentError (reason `too_many_lines`,
   * `line_too_long`, `input_too_large`, `empty_input`) and leaves nothing behind; on a refusal it
   * stops reading `input` without destroying it.
   */
  async submit(owner: BulkJobOwner, input: Readable, options: SubmitOptions): Promise<BulkJob> {
    const id = randomBytes(16).toString('base64url');
    await this.files.createJobDirectory(id);
    try {
      const maxLines = Math.min(options.maxLines ?? this.settings.maxLines, this.settings.maxLines);
      const intake = await writeJobInput(input, this.files.inputPath(id), options.inputFormat ?? 'auto', {
        ...this.settings,
        maxLines,
      });
      const now = this.clock.now();
      const job: StoredBulkJob = {
        id,
        ownerId: owner.id,
        state: 'queued',
        resultFormat: options.resultFormat,
        inputFormat: intake.format,
        context: { ...(options.context ?? {}) },
        chunkSize: this.settings.chunkSize,
        totalLines: intake.lines,
        inputBytes: intake.bytes,
        nextChunk: 0,
        linesDone: 0,
        accepted: 0,
        free: 0,
        inputOffset: 0,
        resultBytes: 0,
        message: null,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
        expiresAt: new Date(now.getTime() + this.settings.ttlMs),
        leaseEpoch: 0,
        leaseToken: null,
        leaseExpiresAt: null,
      };
      await this.repository.insert(job);
      this.logger.info({ jobId: id, ownerId: owner.id, lines: intake.lines, format: intake.format }, 'bulk job submitted');
      this.worker?.wake();
      return toBulkJob(job);
    } catch (error) {
      await this.files.remove(id).catch(() => undefined);
      throw error;
    }
  }

  /** The owner's job; another owner's or an unknown id are both NotFoundError (existence never leaks). */
  async get(jobId: string, ownerId: string): Promise<BulkJob> {
    return toBulkJob(await this.owned(jobId, ownerId));
  }

  /**
   * Resolves with the owner's job once it is in a finished state (completed, quota_exhausted,
   * failed). A run ending on this process wakes it at once; a job another replica runs is seen by
   * re-reading it every `pollIntervalMs`. After `timeoutMs`: DeadlineExceededError (reason
   * `job_wait_timeout`); the job itself goes on. Unknown or another owner's job: NotFoundError.
   */
  async waitForEnd(jobId: string, ownerId: string, options: WaitOptions): Promise<BulkJob> {
    const deadline = this.clock.now().getTime() + options.timeoutMs;
    const pollMs = options.pollIntervalMs ?? this.settings.pollIntervalMs;
    for (;;) {
      const job = toBulkJob(await this.owned(jobId, ownerId));
      if (FINISHED_STATES.includes(job.state)) return job;
      const left = deadline - this.clock.now().getTime();
      if (left <= 0) {
        throw new DeadlineExceededError('the bulk job did not end in time', {
          reason: 'job_wait_timeout',
          details: { state: job.state },
        });
      }
      await this.nextRunEnd(jobId, Math.min(pollMs, left));
    }
  }

  /** Resolves when a run of `jobId` ends on this process, or after `ms`, whichever comes first. */
  private nextRunEnd(jobId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.runs.off('ended', onEnded);
        resolve();
      };
      const onEnded = (ended: string): void => {
        if (ended === jobId) done();
      };
      const timer = setTimeout(done, ms);
      this.runs.on('ended', onEnded);
    });
  }

  /** The owner's most recent jobs, newest first. */
  async list(ownerId: string, limit = 20): Promise<BulkJob[]> {
    return (await this.repository.listByOwner(ownerId, limit)).map(toBulkJob);
  }

  /**
   * The result file of a completed or quota_exhausted job (rows done so far). Other states:
   * FailedPreconditionError with reason `job_not_finished` or `job_failed`.
   */
  async openResult(jobId: string, ownerId: string): Promise<BulkResult> {
    const stored = await this.owned(jobId, ownerId);
    if (stored.state === 'failed') {
      throw new FailedPreconditionError('the job failed and has no result', {
        reason: 'job_failed',
        details: { state: stored.state },
      });
    }
    if (stored.state !== 'completed' && stored.state !== 'quota_exhausted') {
      throw new FailedPreconditionError('the job has not finished yet; poll its state', {
        reason: 'job_not_finished',
        details: { state: stored.state },
      });
    }
    const path = this.files.resultPath(stored.id, stored.resultFormat);
    const size = await this.files.sizeOf(path);
    if (size === undefined || size < stored.resultBytes) throw notFound();
    return {
      job: toBulkJob(stored),
      stream: this.files.openRead(path, stored.resultBytes),
      size: stored.resultBytes,
      contentType: CONTENT_TYPES[stored.resultFormat],
      fileName: `bulk-${stored.id}.${stored.resultFormat}`,
    };
  }

  /** Deletes expired jobs with their files, and job directories no job owns; returns the number of jobs deleted. */
  async sweepExpired(): Promise<number> {
    const now = this.clock.now();
    let deleted = 0;
    for (;;) {
      const expired = await this.repository.findExpired(now, 100);
      for (const job of expired) {
        await this.files.remove(job.id);
        await this.repository.delete(job.id);
        deleted++;
      }
      if (expired.length < 100) break;
    }
    for (const name of await this.files.directoriesOlderThan(new Date(now.getTime() - this.settings.ttlMs))) {
      if ((await this.repository.findById(name)) === null) await this.files.remove(name);
    }
    if (deleted > 0) this.logger.info({ deleted }, 'expired bulk jobs deleted');
    return deleted;
  }

  /** Ids of jobs this process works on now (tests, diagnostics). */
  get activeJobs(): string[] {
    return this.worker?.activeJobs ?? [];
  }

  private async owned(jobId: string, ownerId: string): Promise<StoredBulkJob> {
    const job = await this.repository.findById(jobId);
    if (!job || job.ownerId !== ownerId) throw notFound();
    return job;
  }
}

function notFound(): NotFoundError {
  return new NotFoundError('bulk job not found', { reason: 'job_not_found' });
}
