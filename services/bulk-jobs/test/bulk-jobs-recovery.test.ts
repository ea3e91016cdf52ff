import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MongoConnection } from '@ipdata/common';
import { ManualClock, waitFor } from '@ipdata/common/testing';
import type { BulkChunk } from '@ipdata/bulk-jobs';
import { MongoBulkJobRepository } from '../src/adapters/mongo/bulk-job.repository.js';
import { BulkHarness, logger, readAll, upload, waitForState } from './fixtures/bulk-harness.js';
import { FakeProcessor, csvUpload, expectedCounts, expectedResult } from './fixtures/fake-processor.js';

const child = fileURLToPath(new URL('./fixtures/engine-child.ts', import.meta.url));

function counts(ids: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const id of ids) map.set(id, (map.get(id) ?? 0) + 1);
  return map;
}

describe('bulk jobs: restarts, crashes, replicas', () => {
  const harness = new BulkHarness();
  beforeAll(() => harness.setUp());
  afterEach(() => harness.stopEngines());
  afterAll(() => harness.tearDown());

  it('resumes after a graceful stop mid-job: same result as an uninterrupted run, every chunk once, progress visible', async () => {
    const lines = 50_000;
    const first = new FakeProcessor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atChunk20 = new Promise<void>((resolve) => (reached = resolve));
    first.gate = async (chunk: BulkChunk) => {
      if (chunk.index !== 20) return;
      reached();
      await held;
    };
    const engineA = await harness.engine(first);
    const job = await engineA.submit({ id: 'acct-restart' }, upload(csvUpload(lines)), { resultFormat: 'csv' });
    await atChunk20;
    const midway = await engineA.get(job.id, 'acct-restart');
    expect(midway).toMatchObject({ state: 'running', progress: { totalLines: lines, linesDone: 20_000, percent: 40 } });

    const stopping = harness.stop(engineA); // shutdown while chunk 20 is in flight
    release();
    await stopping;
    const handedBack = await engineA.get(job.id, 'acct-restart').catch(() => undefined);
    expect(handedBack).toBeUndefined(); // engineA's connection is closed; read through the next engine

    const second = new FakeProcessor();
    const engineB = await harness.engine(second);
    const done = await waitForState(engineB, job.id, 'acct-restart', ['completed', 'failed']);
    expect(done.progress).toEqual({ totalLines: lines, linesDone: lines, percent: 100, ...expectedCounts(lines) });
    expect(await readAll((await engineB.openResult(job.id, 'acct-restart')).stream)).toBe(expectedResult('csv', lines));
    // Graceful: chunk 20 was finished and checkpointed by A, so nothing ran twice.
    expect(first.requestIds).toEqual(Array.from({ length: 21 }, (_, i) => `${job.id}:${i}`));
    expect(second.requestIds).toEqual(Array.from({ length: 29 }, (_, i) => `${job.id}:${i + 21}`));
    await harness.stop(engineB);
  });

  it('recovers from a worker process killed with SIGKILL mid-job: identical result, no duplicate rows, only the crashed chunk redone', async () => {
    const lines = 100_000;
    const submitter = await harness.engine(new FakeProcessor(), { runWorker: false });
    const job = await submitter.submit({ id: 'acct-crash' }, upload(csvUpload(lines)), { resultFormat: 'ndjson' });
    const requestLog = join(harness.directory, 'requests.log');
    // Long enough that a stall of the child on a loaded machine does not cost it its own lease
    // (it holds it for 2/3 of LEASE_MS between heartbeats). With 1.5 s, one CI run found two
    // chunks run twice; the likely cause: the child lost its lease mid-chunk, took the job again
    // from the checkpoint and ran that chunk twice itself, before the kill's chunk.
    const leaseMs = 6_000;
    const worker: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', child], {
      env: {
        ...process.env,
        MONGO_URL: harness.mongoUrl,
        BULK_DIR: harness.directory,
        REQUEST_LOG: requestLog,
        LEASE_MS: String(leaseMs),
        CHUNK_DELAY_MS: '10',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = once(worker, 'exit');
    const logged = async (): Promise<string[]> =>
      (await readFile(requestLog, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    await waitFor(async () => (await logged()).length >= 30, { timeoutMs: 60_000, what: 'child processed 30 chunks' });
    worker.kill('SIGKILL');
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    const beforeCrash = await logged();
    const crashed = await submitter.get(job.id, 'acct-crash');
    expect(crashed.state).toBe('running');
    expect(crashed.progress.linesDone).toBeLessThan(lines);

    const resumed = new FakeProcessor();
    const engine = await harness.engine(resumed, { leaseMs });
    const done = await waitForState(engine, job.id, 'acct-crash', ['completed', 'failed']);
    expect(done.progress).toEqual({ totalLines: lines, linesDone: lines, percent: 100, ...expectedCounts(lines) });
    const text = await readAll((await engine.openResult(job.id, 'acct-crash')).stream);
    expect(text).toBe(expectedResult('ndjson', lines));
    const rows = text.trim().split('\n');
    expect(new Set(rows).size).toBe(rows.length); // every input value is distinct, so no row twice

    const all = counts([...beforeCrash, ...resumed.requestIds]);
    expect([...all.keys()].sort()).toEqual(Array.from({ length: 100 }, (_, i) => `${job.id}:${i}`).sort());
    const twice = [...all].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice.length).toBeLessThanOrEqual(1);
    if (twice.length === 1) {
      // Only the chunk in flight at the crash: the last one the child started, the first one resumed.
      expect(twice[0]).toBe(beforeCrash.at(-1));
      expect(resumed.requestIds[0]).toBe(twice[0]);
    }
    expect(Math.max(...all.values())).toBeLessThanOrEqual(2);
    await harness.stop(engine);
    await harness.stop(submitter);
  });

  it('takes over the job of a dead replica only after its lease expired, dropping its unsaved rows', async () => {
    const clock = new ManualClock(new Date('2031-05-01T00:00:00Z'));
    const processor = new FakeProcessor();
    const submitter = await harness.engine(processor, { runWorker: false }, clock);
    const job = await submitter.submit({ id: 'acct-lease' }, upload(csvUpload(3_000)), { resultFormat: 'csv' });

    // A replica claims the job and dies before its first chunk.
    const mongo = MongoConnection.fromConfig({ url: harness.mongoUrl }, logger);
    await mongo.start();
    const repository = new MongoBulkJobRepository(mongo.connection);
    const stored = (await repository.findById(job.id))!;
    const now = clock.now();
    const dead = await repository.claim(stored, 'dead-replica:1', now, new Date(now.getTime() + 10_000));
    expect(dead).toMatchObject({ state: 'running', leaseEpoch: 1, leaseToken: 'dead-replica:1' });
    // A second claim of the same epoch (a racing replica) loses.
    expect(await repository.claim(stored, 'racer:1', now, new Date(now.getTime() + 10_000))).toBeNull();

    // It had written rows it never checkpointed before it died (more than the whole result, so
    // rows written over them at the same positions would not hide a missing truncation).
    const unsaved = 'input,ip,family\n' + '1.0.0.0,1.0.0.0,4\n'.repeat(20_000) + '1.0.0.1,1.0.0.';
    await appendFile(join(harness.directory, job.id, 'result.csv'), unsaved);

    const engine = await harness.engine(processor, { leaseMs: 10_000 }, clock);
    await new Promise((resolve) => setTimeout(resolve, 300)); // several polls
    expect(engine.activeJobs).toEqual([]);
    expect((await engine.get(job.id, 'acct-lease')).progress.linesDone).toBe(0);
    expect(processor.requestIds).toEqual([]);

    clock.advance(10_001);
    const done = await waitForState(engine, job.id, 'acct-lease', ['completed', 'failed']);
    expect(done.state).toBe('completed');
    expect((await repository.findById(job.id))!.leaseEpoch).toBe(2);
    expect(await readAll((await engine.openResult(job.id, 'acct-lease')).stream)).toBe(expectedResult('csv', 3_000));
    expect((await stat(join(harness.directory, job.id, 'result.csv'))).size).toBe(
      Buffer.byteLength(expectedResult('csv', 3_000)),
    );
    expect(processor.requestIds).toEqual([`${job.id}:0`, `${job.id}:1`, `${job.id}:2`]);
    await mongo.shutdown();
    await harness.stop(engine);
    await harness.stop(submitter);
  });

  it('shares one collection between replicas: every job done once, each chunk by exactly one process', async () => {
    const processors = [new FakeProcessor(), new FakeProcessor(), new FakeProcessor()];
    for (const p of processors) p.delayMs = 5;
    const engines = await Promise.all(processors.map((p) => harness.engine(p, { concurrency: 2, pollIntervalMs: 10 })));
    const submitted = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        engines[i % 3]!.submit({ id: 'acct-replicas' }, upload(csvUpload(5_000 + i)), { resultFormat: 'csv' }),
      ),
    );
    for (const [i, job] of submitted.entries()) {
      const done = await waitForState(engines[0]!, job.id, 'acct-replicas', ['completed', 'failed']);
      expect(done.progress.linesDone).toBe(5_000 + i);
      expect(await readAll((await engines[1]!.openResult(job.id, 'acct-replicas')).stream)).toBe(
        expectedResult('csv', 5_000 + i),
      );
    }
    const all = counts(processors.flatMap((p) => p.requestIds));
    const chunks = submitted.flatMap((job, i) =>
      Array.from({ length: Math.ceil((5_000 + i) / 1_000) }, (_, c) => `${job.id}:${c}`),
    );
    expect([...all.keys()].sort()).toEqual(chunks.sort());
    expect([...all.values()].every((n) => n === 1)).toBe(true);
    for (const engine of engines) await harness.stop(engine);
  });
});
