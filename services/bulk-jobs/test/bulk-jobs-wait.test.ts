import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadlineExceededError, InvalidArgumentError, NotFoundError } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';
import { BulkHarness, upload } from './fixtures/bulk-harness.js';
import { FakeProcessor, csvUpload, expectedCounts } from './fixtures/fake-processor.js';

describe('bulk jobs: waiting for a job to end (face A answers the file in the same request)', () => {
  const harness = new BulkHarness();

  beforeAll(() => harness.setUp());
  afterAll(() => harness.tearDown());

  it(
    'wakes the waiter when the job ends on this process, long before its next poll',
    async () => {
      // The waiter polls every minute: only the end-of-run event can make it see the end sooner.
      const pollMs = 60_000;
      // The job is held until the waiter waits, so it cannot end before (and be seen by the first read).
      let open!: () => void;
      const gateOpen = new Promise<void>((resolve) => (open = resolve));
      const held = new FakeProcessor();
      held.gate = () => gateOpen;
      const jobs = await harness.engine(held, { pollIntervalMs: 25 });
      const job = await jobs.submit({ id: 'wait-a' }, upload(csvUpload(3_000)), { resultFormat: 'ndjson' });
      await waitFor(() => held.requestIds.length > 0, { what: 'the job running' });
      const waiting = jobs.waitForEnd(job.id, 'wait-a', { timeoutMs: 2 * pollMs, pollIntervalMs: pollMs });
      await new Promise((resolve) => setTimeout(resolve, 200)); // the waiter's first read: the job runs
      open();
      const done = await waiting;
      const seenAt = Date.now();
      expect(done).toMatchObject({
        id: job.id,
        state: 'completed',
        progress: { totalLines: 3_000, linesDone: 3_000, ...expectedCounts(3_000) },
      });
      // Seen within a fraction of the poll interval after the job ended (finishedAt is the engine's
      // clock, the system clock here): the next poll would have been a minute after the first read.
      expect(seenAt - (done.finishedAt as Date).getTime()).toBeLessThan(pollMs / 2);
      await harness.stop(jobs);
    },
    3 * 60_000,
  );

  it('sees a job another replica runs by polling, and times out with job_wait_timeout while it runs', async () => {
    // Every chunk held until the test opens the gate: the job stays running meanwhile.
    let open!: () => void;
    const gateOpen = new Promise<void>((resolve) => (open = resolve));
    const gated = new FakeProcessor();
    gated.gate = () => gateOpen;
    const worker = await harness.engine(gated);
    // This "replica" only submits and waits: no worker, so no local event can tell it anything.
    const front = await harness.engine(new FakeProcessor(), { runWorker: false });
    const job = await front.submit({ id: 'wait-b' }, upload(csvUpload(1_500)), { resultFormat: 'ndjson' });

    const timeout = await front.waitForEnd(job.id, 'wait-b', { timeoutMs: 300, pollIntervalMs: 50 }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(DeadlineExceededError);
    expect(timeout).toMatchObject({ reason: 'job_wait_timeout' });

    const waiting = front.waitForEnd(job.id, 'wait-b', { timeoutMs: 30_000, pollIntervalMs: 50 });
    open();
    expect(await waiting).toMatchObject({ state: 'completed', progress: { linesDone: 1_500 } });
    await harness.stop(front);
    await harness.stop(worker);
  });

  it('keeps owners apart and applies a per-submit line limit below the engine limit', async () => {
    const jobs = await harness.engine(new FakeProcessor(), { maxLines: 1_000 });
    const job = await jobs.submit({ id: 'wait-c' }, upload(csvUpload(10)), { resultFormat: 'ndjson' });
    await expect(jobs.waitForEnd(job.id, 'someone-else', { timeoutMs: 1_000 })).rejects.toBeInstanceOf(NotFoundError);
    await jobs.waitForEnd(job.id, 'wait-c', { timeoutMs: 30_000 });

    const lower = await jobs
      .submit({ id: 'wait-c' }, upload(csvUpload(11)), { resultFormat: 'ndjson', maxLines: 10 })
      .catch((e: unknown) => e);
    expect(lower).toBeInstanceOf(InvalidArgumentError);
    expect(lower).toMatchObject({ reason: 'too_many_lines', details: { maxLines: '10' } });
    // A per-submit limit never raises the engine's own.
    const higher = await jobs
      .submit({ id: 'wait-c' }, upload(csvUpload(1_001)), { resultFormat: 'ndjson', maxLines: 5_000 })
      .catch((e: unknown) => e);
    expect(higher).toMatchObject({ reason: 'too_many_lines', details: { maxLines: '1000' } });
    expect(
      (await jobs.submit({ id: 'wait-c' }, upload(csvUpload(10)), { resultFormat: 'ndjson', maxLines: 10 })).progress.totalLines,
    ).toBe(10);
    await harness.stop(jobs);
  });

  it('keeps engines with different collection prefixes apart on one database (bff-en and bff-cn under make up)', async () => {
    // Two services, one database: each engine runs only its own jobs, with its own processor.
    const bulkProcessor = new FakeProcessor();
    const batchProcessor = new FakeProcessor();
    // Not the default prefix: earlier tests of this file left a queued job in `bulk_jobs`.
    const bulk = await harness.engine(bulkProcessor, { collectionPrefix: 'public_api_bulk' });
    const batch = await harness.engine(batchProcessor, { collectionPrefix: 'face_a_batch' });
    const bulkJob = await bulk.submit({ id: 'prefix-owner' }, upload(csvUpload(20)), { resultFormat: 'ndjson' });
    const batchJob = await batch.submit({ id: 'prefix-owner' }, upload(csvUpload(30)), { resultFormat: 'ndjson' });
    expect(await bulk.waitForEnd(bulkJob.id, 'prefix-owner', { timeoutMs: 30_000 })).toMatchObject({ state: 'completed' });
    expect(await batch.waitForEnd(batchJob.id, 'prefix-owner', { timeoutMs: 30_000 })).toMatchObject({ state: 'completed' });
    expect(bulkProcessor.requestIds).toEqual([`${bulkJob.id}:0`]);
    expect(batchProcessor.requestIds).toEqual([`${batchJob.id}:0`]);
    await expect(bulk.get(batchJob.id, 'prefix-owner')).rejects.toBeInstanceOf(NotFoundError);
    await harness.stop(bulk);
    await harness.stop(batch);
  });
});
