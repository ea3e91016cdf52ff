import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import type { BulkJobs } from '@ipdata/bulk-jobs';
import { BulkHarness, readAll, upload, waitForState } from './fixtures/bulk-harness.js';
import { FakeProcessor, csvUpload, expectedCounts, expectedResult, formatRow, inputValue } from './fixtures/fake-processor.js';

describe('bulk jobs: submit, process, download', () => {
  const harness = new BulkHarness();
  const processor = new FakeProcessor();
  let jobs: BulkJobs;

  beforeAll(async () => {
    await harness.setUp();
    jobs = await harness.engine(processor, { maxLines: 250_000 });
  });
  afterAll(() => harness.tearDown());

  it('runs a 200,000-line CSV job to completion with exact counts, in order, each chunk once', async () => {
    const lines = 200_000;
    processor.requestIds.length = 0;
    const submitted = await jobs.submit({ id: 'acct-big' }, upload(csvUpload(lines)), { resultFormat: 'csv' });
    expect(submitted).toMatchObject({
      state: 'queued',
      inputFormat: 'csv',
      resultFormat: 'csv',
      progress: { totalLines: lines, linesDone: 0, percent: 0 },
    });
    expect(submitted.id).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const done = await waitForState(jobs, submitted.id, 'acct-big', ['completed', 'failed']);
    expect(done.state).toBe('completed');
    expect(done.progress).toEqual({ totalLines: lines, linesDone: lines, percent: 100, ...expectedCounts(lines) });
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.finishedAt!.getTime()).toBeGreaterThanOrEqual(done.startedAt!.getTime());

    const result = await jobs.openResult(submitted.id, 'acct-big');
    const text = await readAll(result.stream);
    expect(result.size).toBe(Buffer.byteLength(text));
    expect(result.contentType).toBe('text/csv; charset=utf-8');
    expect(text).toBe(expectedResult('csv', lines));
    expect(processor.requestIds).toEqual(Array.from({ length: 200 }, (_, i) => `${submitted.id}:${i}`));
  });

  it('reads NDJSON and one-per-line uploads, passing bad lines through in place', async () => {
    const ndjson = ['"1.2.3.4"', '{"ip":"2001:DB8::1"}', '{oops', '', '{"ip":"010.0.0.1"}'].join('\n');
    const a = await jobs.submit({ id: 'acct-fmt' }, upload([ndjson]), { resultFormat: 'ndjson' });
    expect(a.inputFormat).toBe('ndjson');
    const plain = await jobs.submit({ id: 'acct-fmt' }, upload(['8.8.8.8\r\nnope\r\n\r\n::ffff:1.2.3.4']), {
      resultFormat: 'ndjson',
      context: { keyId: 'k1' },
    });
    expect(plain).toMatchObject({ inputFormat: 'lines', context: { keyId: 'k1' } });

    const doneA = await waitForState(jobs, a.id, 'acct-fmt', ['completed']);
    expect(doneA.progress).toMatchObject({ totalLines: 4, linesDone: 4, accepted: 2, free: 2 });
    expect(await readAll((await jobs.openResult(a.id, 'acct-fmt')).stream)).toBe(
      ['1.2.3.4', '2001:DB8::1', '{oops', '010.0.0.1'].map((l) => formatRow('ndjson', l).row).join('\n') + '\n',
    );
    const doneP = await waitForState(jobs, plain.id, 'acct-fmt', ['completed']);
    expect(doneP.progress).toMatchObject({ totalLines: 3, accepted: 2, free: 1 });
    const rows = (await readAll((await jobs.openResult(plain.id, 'acct-fmt')).stream)).trim().split('\n');
    expect(rows.map((r) => JSON.parse(r) as unknown)).toEqual([
      { input: '8.8.8.8', ip: '8.8.8.8', family: 4 },
      { input: 'nope', ip: null, family: null },
      { input: '::ffff:1.2.3.4', ip: '1.2.3.4', family: 4 },
    ]);
  });

  it('refuses an upload over maxLines with too_many_lines and leaves no job and no file behind', async () => {
    const before = await readdir(harness.directory);
    const error = await jobs
      .submit({ id: 'acct-limit' }, upload(csvUpload(250_001)), { resultFormat: 'csv' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ reason: 'too_many_lines', details: { maxLines: '250000' } });
    expect(await readdir(harness.directory)).toEqual(before);
    expect(await jobs.list('acct-limit')).toEqual([]);

    const empty = await jobs.submit({ id: 'acct-limit' }, upload(['\n \n']), { resultFormat: 'csv' }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ kind: 'invalid_argument', reason: 'empty_input' });
    expect(await readdir(harness.directory)).toEqual(before);
  });

  it('stops a job cleanly when the quota runs out; the rows done so far are downloadable', async () => {
    const quotaProcessor = new FakeProcessor();
    quotaProcessor.budget = 2_500;
    const engine = await harness.engine(quotaProcessor, { chunkSize: 1_000, runWorker: true });
    await harness.stop(jobs); // only the engine with the small quota takes the job
    try {
      const job = await engine.submit({ id: 'acct-quota' }, upload(csvUpload(10_000)), { resultFormat: 'ndjson' });
      const ended = await waitForState(engine, job.id, 'acct-quota', ['quota_exhausted', 'completed', 'failed']);
      expect(ended.state).toBe('quota_exhausted');
      expect(ended.message).toBe('monthly quota used up');
      expect(ended.progress.accepted).toBe(2_500);
      // Chunks 0 and 1 whole, chunk 2 up to the 2,500th accepted address.
      let linesForBudget = 0;
      for (let accepted = 0; ; linesForBudget++) {
        if (formatRow('ndjson', inputValue(linesForBudget)).valid) {
          if (accepted === 2_500) break;
          accepted++;
        }
      }
      expect(ended.progress).toMatchObject({ totalLines: 10_000, linesDone: linesForBudget });
      expect(ended.progress.free).toBe(linesForBudget - 2_500);
      expect(quotaProcessor.requestIds).toEqual([`${job.id}:0`, `${job.id}:1`, `${job.id}:2`]);
      const text = await readAll((await engine.openResult(job.id, 'acct-quota')).stream);
      expect(text).toBe(expectedResult('ndjson', linesForBudget));
    } finally {
      await harness.stop(engine);
      jobs = await harness.engine(processor, { maxLines: 250_000 });
    }
  });

  it('never shows a job to another owner: get and openResult answer not found, as for an unknown id', async () => {
    const job = await jobs.submit({ id: 'acct-owner' }, upload(['1.2.3.4\n']), { resultFormat: 'csv' });
    await waitForState(jobs, job.id, 'acct-owner', ['completed']);
    for (const attempt of [
      () => jobs.get(job.id, 'acct-other'),
      () => jobs.openResult(job.id, 'acct-other'),
      () => jobs.get('no-such-job', 'acct-owner'),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ message: 'bulk job not found', reason: 'job_not_found' });
    }
    expect((await jobs.list('acct-other')).map((j) => j.id)).not.toContain(job.id);
    expect((await jobs.list('acct-owner')).map((j) => j.id)).toContain(job.id);
  });

  it('refuses the result of an unfinished job, and fails a job without leaking the error', async () => {
    const failing = new FakeProcessor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    failing.gate = () => held;
    failing.failWith = new Error('connect ECONNREFUSED 10.1.2.3:50051 secret-host');
    await harness.stop(jobs);
    const engine = await harness.engine(failing);
    try {
      const job = await engine.submit({ id: 'acct-fail' }, upload(['1.2.3.4\n']), { resultFormat: 'csv' });
      await waitForState(engine, job.id, 'acct-fail', ['running']);
      const early = await engine.openResult(job.id, 'acct-fail').catch((e: unknown) => e);
      expect(early).toBeInstanceOf(FailedPreconditionError);
      expect(early).toMatchObject({ reason: 'job_not_finished', details: { state: 'running' } });
      release();
      const failed = await waitForState(engine, job.id, 'acct-fail', ['failed', 'completed']);
      expect(failed.state).toBe('failed');
      expect(failed.message).toBe('the job failed because of an internal error; submit it again or contact support');
      expect(await engine.openResult(job.id, 'acct-fail').catch((e: unknown) => e)).toMatchObject({ reason: 'job_failed' });
    } finally {
      await harness.stop(engine);
      jobs = await harness.engine(processor, { maxLines: 250_000 });
    }
  });

  it('deletes expired jobs with their files after the TTL', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    await harness.stop(jobs);
    const engine = await harness.engine(processor, { ttlMs: 60_000 }, clock);
    try {
      const job = await engine.submit({ id: 'acct-ttl' }, upload(['1.2.3.4\n']), { resultFormat: 'csv' });
      const done = await waitForState(engine, job.id, 'acct-ttl', ['completed']);
      expect(done.expiresAt.toISOString()).toBe('2030-01-01T00:01:00.000Z');
      expect(await readdir(harness.directory)).toContain(job.id);
      clock.advance(59_000);
      await engine.sweepExpired();
      expect((await engine.get(job.id, 'acct-ttl')).state).toBe('completed');
      clock.advance(1_000);
      expect(await engine.sweepExpired()).toBeGreaterThanOrEqual(1);
      await expect(engine.get(job.id, 'acct-ttl')).rejects.toBeInstanceOf(NotFoundError);
      expect(await readdir(harness.directory)).not.toContain(job.id);
    } finally {
      await harness.stop(engine);
      jobs = await harness.engine(processor, { maxLines: 250_000 });
    }
  });
});
