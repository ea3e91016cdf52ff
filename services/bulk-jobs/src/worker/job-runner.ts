import { InternalError, errorText, isDomainError, isTransientError, retry, type Clock, type Logger } from '@ipdata/common';
import { readInputChunks, ResultFile, type JobFiles } from '../files/job-files.js';
import { toBulkJob } from '../jobs/bulk-job.view.js';
import type { BulkJobRepository, Checkpoint, ChunkProcessor, ChunkResult, StoredBulkJob } from '../jobs/bulk-job.ports.js';
import type { BulkJob, BulkJobState } from '../jobs/bulk-job.js';
import type { LeaseKeeper } from './lease-keeper.js';

export interface JobRunnerDeps {
  repository: BulkJobRepository;
  files: JobFiles;
  processor: ChunkProcessor;
  clock: Clock;
  logger: Logger;
  ttlMs: number;
  /** Attempts per chunk when the processor fails with a transient error (a dependency down). */
  chunkAttempts: number;
  retryMaxDelayMs: number;
}

/** What ended a run: finished (any final state), handed back (shutdown) or lost (lease). */
export type RunOutcome = 'finished' | 'released' | 'lost';

const INTERNAL_FAILURE = 'the job failed because of an internal error; submit it again or contact support';

/**
 * Works through one claimed job from its checkpoint: cuts the result file back to the
 * checkpointed length (a crash may have left a partly written chunk), then per chunk: process,
 * write the rows, checkpoint. A chunk processed again after a crash carries the same requestId.
 */
export async function runJob(
  job: StoredBulkJob,
  keeper: LeaseKeeper,
  deps: JobRunnerDeps,
  stopping: () => boolean,
): Promise<RunOutcome> {
  const log = deps.logger.child({ jobId: job.id, epoch: keeper.lease.epoch });
  const inputPath = deps.files.inputPath(job.id);
  const resultPath = deps.files.resultPath(job.id, job.resultFormat);
  if ((await deps.files.sizeOf(inputPath)) === undefined) {
    log.error({ inputPath }, 'bulk job input file is missing (files directory not shared between replicas?)');
    return finish(job, keeper, deps, checkpointOf(job), 'failed', 'the job input is no longer available; submit it again');
  }

  let state: Checkpoint = checkpointOf(job);
  const resultSize = (await deps.files.sizeOf(resultPath)) ?? 0;
  if (resultSize < state.resultBytes) {
    // The file lost data the checkpoint counts (machine crash before the page cache was written):
    // start over; the same requestIds make the redone chunks free downstream.
    log.warn(
      { resultSize, checkpointBytes: state.resultBytes },
      'bulk job result shorter than its checkpoint, restarting the job',
    );
    state = { nextChunk: 0, linesDone: 0, accepted: 0, free: 0, inputOffset: 0, resultBytes: 0 };
  }

  const view = toBulkJob(job);
  const result = await ResultFile.openAt(resultPath, state.resultBytes);
  try {
    return await runChunks({ job, view, keeper, deps, stopping, result, log, inputPath }, state);
  } catch (error) {
    // Disk full, a broken file...: end the job rather than retry it forever on every replica.
    log.error({ err: error, reason: errorText(error) }, 'bulk job failed unexpectedly');
    return await finish(job, keeper, deps, checkpointOf(await reread(job, deps)), 'failed', INTERNAL_FAILURE);
  } finally {
    await result.close();
  }
}

async function reread(job: StoredBulkJob, deps: JobRunnerDeps): Promise<StoredBulkJob> {
  return (await deps.repository.findById(job.id)) ?? job;
}

interface Run {
  job: StoredBulkJob;
  view: BulkJob;
  keeper: LeaseKeeper;
  deps: JobRunnerDeps;
  stopping: () => boolean;
  result: ResultFile;
  log: Logger;
  inputPath: string;
}

async function runChunks(run: Run, from: Checkpoint): Promise<RunOutcome> {
  const { job, view, keeper, deps, stopping, result, log, inputPath } = run;
  let state = from;
  if (state.nextChunk === 0 && state.resultBytes === 0) {
    const header = deps.processor.header?.(view);
    if (header !== undefined) await result.appendLines([header]);
  }
  for await (const chunk of readInputChunks(inputPath, state.inputOffset, state.nextChunk, job.chunkSize)) {
    if (stopping()) return await release(keeper, deps, log);
    if (!keeper.held) return lost(keeper, log);
    const requestId = `${job.id}:${chunk.index}`;
    let answer: ChunkResult;
    try {
      answer = await processChunk(deps, view, { index: chunk.index, requestId, lines: chunk.lines }, log);
      checkAnswer(answer, chunk.lines.length);
    } catch (error) {
      log.error({ err: error, requestId, reason: errorText(error) }, 'bulk job chunk failed');
      return await finish(job, keeper, deps, state, 'failed', failureMessage(error));
    }
    if (!keeper.held) return lost(keeper, log);
    await result.appendLines(answer.rows);
    state = {
      nextChunk: chunk.index + 1,
      linesDone: state.linesDone + answer.rows.length,
      accepted: state.accepted + answer.accepted,
      free: state.free + answer.free,
      inputOffset: chunk.endOffset,
      resultBytes: result.bytes,
    };
    if (answer.stop) return await finish(job, keeper, deps, state, answer.stop.state, answer.stop.message);
    const next = state;
    if (!(await keeper.write((until) => deps.repository.saveCheckpoint(keeper.lease, next, until)))) return lost(keeper, log);
  }
  if (state.linesDone !== job.totalLines) {
    log.error({ linesDone: state.linesDone, totalLines: job.totalLines }, 'bulk job input file ended early');
    return await finish(job, keeper, deps, state, 'failed', INTERNAL_FAILURE);
  }
  return await finish(job, keeper, deps, state, 'completed', null);
}

async function processChunk(
  deps: JobRunnerDeps,
  job: BulkJob,
  chunk: { index: number; requestId: string; lines: string[] },
  log: Logger,
): Promise<ChunkResult> {
  return retry(() => deps.processor.process(job, chunk), {
    attempts: deps.chunkAttempts,
    initialDelayMs: 250,
    maxDelayMs: deps.retryMaxDelayMs,
    retryable: isTransientError,
    onRetry: (error, attempt, delayMs) =>
      log.warn({ requestId: chunk.requestId, attempt, delayMs, reason: errorText(error) }, 'bulk job chunk failed, retrying'),
  });
}

function checkAnswer(answer: ChunkResult, lines: number): void {
  const rowsOk = answer.stop ? answer.rows.length <= lines : answer.rows.length === lines;
  if (!rowsOk) throw new InternalError(`processor returned ${answer.rows.length} rows for ${lines} lines`);
  if (answer.rows.some((row) => /[\r\n]$/.test(row)))
    throw new InternalError('processor returned a row ending with a line break');
}

/** What the owner reads: a domain error's own message (written for callers), never an internal one. */
function failureMessage(error: unknown): string {
  if (isDomainError(error) && error.kind !== 'internal') {
    return isTransientError(error) ? `a service the job needs was unavailable: ${error.message}; submit it again` : error.message;
  }
  return INTERNAL_FAILURE;
}

async function finish(
  job: StoredBulkJob,
  keeper: LeaseKeeper,
  deps: JobRunnerDeps,
  checkpoint: Checkpoint,
  state: BulkJobState,
  message: string | null,
): Promise<RunOutcome> {
  const finishedAt = deps.clock.now();
  const end = { state, message, finishedAt, expiresAt: new Date(finishedAt.getTime() + deps.ttlMs) };
  const done = await keeper.write(() => deps.repository.finish(keeper.lease, checkpoint, end));
  deps.logger.info({ jobId: job.id, state, linesDone: checkpoint.linesDone, totalLines: job.totalLines, done }, 'bulk job ended');
  return done ? 'finished' : 'lost';
}

async function release(keeper: LeaseKeeper, deps: JobRunnerDeps, log: Logger): Promise<RunOutcome> {
  await keeper.write(async () => {
    await deps.repository.release(keeper.lease, deps.clock.now());
    return true;
  });
  log.info('bulk job handed back for another process (shutdown)');
  return 'released';
}

function lost(keeper: LeaseKeeper, log: Logger): RunOutcome {
  log.warn({ reason: keeper.lost }, 'bulk job lease lost, stopping without writing');
  return 'lost';
}

function checkpointOf(job: StoredBulkJob): Checkpoint {
  const { nextChunk, linesDone, accepted, free, inputOffset, resultBytes } = job;
  return { nextChunk, linesDone, accepted, free, inputOffset, resultBytes };
}
