/**
 * A bulk job as callers see it. The engine stores more (lease, checkpoint: `StoredBulkJob`),
 * but nothing of that leaves the package.
 */
export type BulkJobState = 'queued' | 'running' | 'completed' | 'quota_exhausted' | 'failed';

/** Finished states: the job is never processed again; its result stays until it expires. */
export const FINISHED_STATES: readonly BulkJobState[] = ['completed', 'quota_exhausted', 'failed'];

export type ResultFormat = 'csv' | 'ndjson';

/** How the uploaded lines are read; `auto` decides from the first non-blank line. */
export type InputFormat = 'auto' | 'csv' | 'ndjson' | 'lines';

export interface BulkJobOwner {
  /** The account (face B) or visitor/user (face A) the job belongs to; only it can see the job. */
  id: string;
}

export interface BulkJobProgress {
  totalLines: number;
  linesDone: number;
  /** linesDone / totalLines in percent, one decimal, rounded down (100 only when every line is done). */
  percent: number;
  /** Lines the processor counted as lookups (quota). */
  accepted: number;
  /** Lines answered without counting (invalid, reserved, ...). */
  free: number;
}

export interface BulkJob {
  id: string;
  ownerId: string;
  state: BulkJobState;
  resultFormat: ResultFormat;
  /** The input format actually used (auto resolved at submit). */
  inputFormat: Exclude<InputFormat, 'auto'>;
  /** Caller's per-job settings given at submit (key id, field filter, language...), passed to the processor. */
  context: Readonly<Record<string, string>>;
  progress: BulkJobProgress;
  /** Why the job ended as quota_exhausted or failed; null otherwise. Safe to show to the owner. */
  message: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When the job and its files are deleted. */
  expiresAt: Date;
}

export function progressOf(totalLines: number, linesDone: number, accepted: number, free: number): BulkJobProgress {
  const percent = totalLines === 0 ? 0 : Math.floor((linesDone * 1000) / totalLines) / 10;
  return { totalLines, linesDone, percent, accepted, free };
}
