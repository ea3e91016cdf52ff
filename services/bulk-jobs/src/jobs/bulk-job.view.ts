import { progressOf, type BulkJob } from './bulk-job.js';
import type { StoredBulkJob } from './bulk-job.ports.js';

/** The caller's view of a stored job: no lease, no checkpoint internals. */
export function toBulkJob(job: StoredBulkJob): BulkJob {
  return {
    id: job.id,
    ownerId: job.ownerId,
    state: job.state,
    resultFormat: job.resultFormat,
    inputFormat: job.inputFormat,
    context: Object.freeze({ ...job.context }),
    progress: progressOf(job.totalLines, job.linesDone, job.accepted, job.free),
    message: job.message,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    expiresAt: job.expiresAt,
  };
}
