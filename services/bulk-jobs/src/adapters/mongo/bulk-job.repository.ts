import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import { FINISHED_STATES, type BulkJobState } from '../../jobs/bulk-job.js';
import type { BulkJobRepository, Checkpoint, Lease, StoredBulkJob } from '../../jobs/bulk-job.ports.js';

type JobDoc = Omit<StoredBulkJob, 'id'> & { _id: string };

const jobSchema = new Schema<JobDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    state: { type: String, required: true },
    resultFormat: { type: String, required: true },
    inputFormat: { type: String, required: true },
    context: { type: Schema.Types.Mixed, default: {} },
    chunkSize: { type: Number, required: true },
    totalLines: { type: Number, required: true },
    inputBytes: { type: Number, required: true },
    nextChunk: { type: Number, required: true },
    linesDone: { type: Number, required: true },
    accepted: { type: Number, required: true },
    free: { type: Number, required: true },
    inputOffset: { type: Number, required: true },
    resultBytes: { type: Number, required: true },
    message: { type: String, default: null },
    createdAt: { type: Date, required: true },
    startedAt: { type: Date, default: null },
    finishedAt: { type: Date, default: null },
    expiresAt: { type: Date, required: true },
    leaseEpoch: { type: Number, required: true },
    leaseToken: { type: String, default: null },
    leaseExpiresAt: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
jobSchema.index({ state: 1, createdAt: 1 });
jobSchema.index({ ownerId: 1, createdAt: -1 });
jobSchema.index({ expiresAt: 1 });

interface ClaimDoc {
  /** `${jobId}:${epoch}`: the unique primary key makes one claimer win per epoch. */
  _id: string;
  jobId: string;
  token: string;
  at: Date;
}

const claimSchema = new Schema<ClaimDoc>(
  { _id: { type: String, required: true }, jobId: String, token: String, at: Date },
  { versionKey: false },
);
claimSchema.index({ jobId: 1 });

function fromDoc(doc: JobDoc): StoredBulkJob {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest, context: { ...(rest.context ?? {}) } };
}

/**
 * Jobs in `<prefix>_jobs`, claims in `<prefix>_job_claims` (prefix `bulk` unless the service names its own). FerretDB 1.24 does not apply concurrent
 * updates of one document atomically (services/common/README.md), so a conditional update alone
 * cannot pick one winner among replicas: a claim first inserts `${jobId}:${epoch + 1}` (the unique
 * _id is enforced there too), and only the process whose insert succeeded writes the lease and
 * confirms it by reading the job back. Lease writes afterwards are filtered on epoch and token;
 * the owner itself stops before its lease runs out (JobRunner), so no two processes write a job.
 */
export class MongoBulkJobRepository implements BulkJobRepository {
  private readonly jobs: Model<JobDoc>;
  private readonly claims: Model<ClaimDoc>;

  constructor(connection: Connection, prefix = 'bulk') {
    if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`invalid bulk job collection prefix: ${prefix}`);
    this.jobs = connection.model<JobDoc>(`BulkJob:${prefix}`, jobSchema, `${prefix}_jobs`);
    this.claims = connection.model<ClaimDoc>(`BulkJobClaim:${prefix}`, claimSchema, `${prefix}_job_claims`);
  }

  async ensureIndexes(): Promise<void> {
    await this.jobs.createIndexes();
    await this.claims.createIndexes();
  }

  async insert(job: StoredBulkJob): Promise<void> {
    const { id, ...rest } = job;
    await this.jobs.collection.insertOne({ _id: id, ...rest } as never);
  }

  async findById(id: string): Promise<StoredBulkJob | null> {
    const doc = await this.jobs.findById(id).lean<JobDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async listByOwner(ownerId: string, limit: number): Promise<StoredBulkJob[]> {
    const docs = await this.jobs.find({ ownerId }).sort({ createdAt: -1, _id: 1 }).limit(limit).lean<JobDoc[]>();
    return docs.map(fromDoc);
  }

  async findClaimable(now: Date, limit: number): Promise<StoredBulkJob[]> {
    const docs = await this.jobs
      .find({ $or: [{ state: 'queued' }, { state: 'running', leaseExpiresAt: { $lte: now } }] })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .lean<JobDoc[]>();
    return docs.map(fromDoc);
  }

  async claim(job: StoredBulkJob, token: string, now: Date, leaseExpiresAt: Date): Promise<StoredBulkJob | null> {
    const epoch = job.leaseEpoch + 1;
    try {
      await this.claims.collection.insertOne({ _id: `${job.id}:${epoch}`, jobId: job.id, token, at: now } as never);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.dropStaleClaim(`${job.id}:${epoch}`, new Date(2 * now.getTime() - leaseExpiresAt.getTime()));
      return null;
    }
    await this.jobs.updateOne(
      { _id: job.id, leaseEpoch: job.leaseEpoch, state: { $in: ['queued', 'running'] } },
      { $set: { state: 'running', leaseEpoch: epoch, leaseToken: token, leaseExpiresAt, startedAt: job.startedAt ?? now } },
    );
    const confirmed = await this.findById(job.id);
    return confirmed && confirmed.leaseEpoch === epoch && confirmed.leaseToken === token ? confirmed : null;
  }

  async extendLease(lease: Lease, leaseExpiresAt: Date): Promise<boolean> {
    const result = await this.jobs.updateOne(this.leaseFilter(lease), { $set: { leaseExpiresAt } });
    return result.matchedCount === 1;
  }

  async saveCheckpoint(lease: Lease, checkpoint: Checkpoint, leaseExpiresAt: Date): Promise<boolean> {
    const result = await this.jobs.updateOne(this.leaseFilter(lease), { $set: { ...checkpoint, leaseExpiresAt } });
    return result.matchedCount === 1;
  }

  async finish(
    lease: Lease,
    checkpoint: Checkpoint,
    end: { state: BulkJobState; message: string | null; finishedAt: Date; expiresAt: Date },
  ): Promise<boolean> {
    const result = await this.jobs.updateOne(this.leaseFilter(lease), {
      $set: { ...checkpoint, ...end, leaseToken: null, leaseExpiresAt: null },
    });
    return result.matchedCount === 1;
  }

  async release(lease: Lease, now: Date): Promise<void> {
    await this.jobs.updateOne(this.leaseFilter(lease), { $set: { leaseToken: null, leaseExpiresAt: now } });
  }

  async findExpired(now: Date, limit: number): Promise<StoredBulkJob[]> {
    const docs = await this.jobs
      .find({
        expiresAt: { $lte: now },
        $or: [{ state: { $in: [...FINISHED_STATES, 'queued'] } }, { state: 'running', leaseExpiresAt: { $lte: now } }],
      })
      .limit(limit)
      .lean<JobDoc[]>();
    return docs.map(fromDoc);
  }

  async delete(id: string): Promise<void> {
    await this.claims.deleteMany({ jobId: id });
    await this.jobs.deleteOne({ _id: id });
  }

  /**
   * A claimer that died between inserting its claim and writing the lease would block the job
   * forever (everyone else tries the same epoch). Such a claim, older than one lease while the job
   * still shows the previous epoch, is removed; the next poll claims again. The delete names the
   * stale claimer's token, so it never removes a fresh claim that replaced it.
   */
  private async dropStaleClaim(claimId: string, staleBefore: Date): Promise<void> {
    const claim = await this.claims.findById(claimId).lean<ClaimDoc>();
    if (claim && claim.at < staleBefore) await this.claims.deleteOne({ _id: claimId, token: claim.token });
  }

  private leaseFilter(lease: Lease): Record<string, unknown> {
    return { _id: lease.jobId, state: 'running', leaseEpoch: lease.epoch, leaseToken: lease.token };
  }
}
