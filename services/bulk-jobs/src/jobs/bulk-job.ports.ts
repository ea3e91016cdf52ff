import type { BulkJob, BulkJobState, InputFormat, ResultFormat } from './bulk-job.js';

export interface BulkChunk {
  /** 0-based chunk number. */
  index: number;
  /**
   * `${job.id}:${index}`: the same for the same lines across restarts and replicas, so quota
   * reservations and usage events keyed by it are idempotent downstream. A chunk is processed
   * again only when a process died (or lost its lease) after processing it and before its
   * checkpoint was written.
   */
  requestId: string;
  /** The job's input values in order, one per uploaded data line, passed through unchanged (bad lines included). */
  lines: string[];
}

export interface ChunkResult {
  /** Formatted output records, one per input line, in order, without line terminator. */
  rows: string[];
  accepted: number;
  free: number;
  /**
   * Ends the job after this chunk's rows are written (the quota ran out). `rows` may then be
   * shorter than `lines`: the rows given are kept and downloadable.
   */
  stop?: { state: 'quota_exhausted'; message: string };
}

/** What the caller plugs in: looks up one chunk and formats its rows (the engine knows no lookups). */
export interface ChunkProcessor {
  process(job: BulkJob, chunk: BulkChunk): Promise<ChunkResult>;
  /** First line of the result file (CSV header), written once; undefined for none. */
  header?(job: BulkJob): string | undefined;
}

/** The job as stored: what callers see plus the checkpoint and the lease. */
export interface StoredBulkJob {
  id: string;
  ownerId: string;
  state: BulkJobState;
  resultFormat: ResultFormat;
  inputFormat: Exclude<InputFormat, 'auto'>;
  context: Record<string, string>;
  /** Fixed at submit, so a chunk index always names the same lines (requestId stability). */
  chunkSize: number;
  totalLines: number;
  inputBytes: number;
  // Checkpoint: everything before `nextChunk` is in the result file up to `resultBytes`.
  nextChunk: number;
  linesDone: number;
  accepted: number;
  free: number;
  inputOffset: number;
  resultBytes: number;
  message: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
  // Lease: which process works on the job until when. Epoch grows by one per claim.
  leaseEpoch: number;
  leaseToken: string | null;
  leaseExpiresAt: Date | null;
}

export interface Lease {
  jobId: string;
  epoch: number;
  token: string;
}

export interface Checkpoint {
  nextChunk: number;
  linesDone: number;
  accepted: number;
  free: number;
  inputOffset: number;
  resultBytes: number;
}

export interface BulkJobRepository {
  ensureIndexes(): Promise<void>;
  insert(job: StoredBulkJob): Promise<void>;
  findById(id: string): Promise<StoredBulkJob | null>;
  listByOwner(ownerId: string, limit: number): Promise<StoredBulkJob[]>;
  /** Queued jobs and running jobs whose lease expired, oldest first. */
  findClaimable(now: Date, limit: number): Promise<StoredBulkJob[]>;
  /**
   * Takes the job for one process: at most one caller wins per lease epoch, even on a server
   * whose single-document updates are not atomic (FerretDB). Null when another process won.
   */
  claim(job: StoredBulkJob, token: string, now: Date, leaseExpiresAt: Date): Promise<StoredBulkJob | null>;
  /** False when the lease is no longer ours (the job was taken over). */
  extendLease(lease: Lease, leaseExpiresAt: Date): Promise<boolean>;
  saveCheckpoint(lease: Lease, checkpoint: Checkpoint, leaseExpiresAt: Date): Promise<boolean>;
  finish(
    lease: Lease,
    checkpoint: Checkpoint,
    end: { state: BulkJobState; message: string | null; finishedAt: Date; expiresAt: Date },
  ): Promise<boolean>;
  /** Gives the job back (graceful shutdown) so another process can take it at once. */
  release(lease: Lease, now: Date): Promise<void>;
  /** Jobs past their expiry that no live process is working on. */
  findExpired(now: Date, limit: number): Promise<StoredBulkJob[]>;
  delete(id: string): Promise<void>;
}
