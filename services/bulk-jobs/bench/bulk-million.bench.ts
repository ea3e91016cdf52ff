/**
 * Wall time and peak RSS of one 1,000,000-line bulk job in this process (upload streamed from a
 * generator, the deterministic test processor, result streamed back), against the MongoDB at
 * MONGO_URL. Not a test: prints one JSON line per run.
 *   MONGO_URL=mongodb://127.0.0.1:27017/bench node --conditions=source --import tsx services/bulk-jobs/bench/bulk-million.bench.ts [--lines 1000000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { MongoConnection } from '@ipdata/common';
import { BulkJobs } from '@ipdata/bulk-jobs';
import { FakeProcessor, csvUpload } from '../test/fixtures/fake-processor.js';

const linesArg = process.argv.indexOf('--lines');
const lines = linesArg === -1 ? 1_000_000 : Number(process.argv[linesArg + 1]);
const logger = pino({ level: 'warn' });
const url = new URL(process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017/bench');
url.pathname = `/bulk_bench_${Date.now().toString(36)}`;

let peakRss = process.memoryUsage().rss;
const baselineRss = peakRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const directory = await mkdtemp(join(tmpdir(), 'bulk-bench-'));
const mongo = MongoConnection.fromConfig({ url: url.toString() }, logger);
await mongo.start();
const jobs = BulkJobs.fromConfig({ mongo, directory, processor: new FakeProcessor(), pollIntervalMs: 50 }, logger);
await jobs.start();
try {
  const started = performance.now();
  const job = await jobs.submit({ id: 'bench' }, Readable.from(csvUpload(lines)), { resultFormat: 'csv' });
  const submitted = performance.now();
  let state = job;
  while (state.state === 'queued' || state.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = await jobs.get(job.id, 'bench');
  }
  const processed = performance.now();
  const result = await jobs.openResult(job.id, 'bench');
  let bytes = 0;
  for await (const part of result.stream) bytes += (part as Buffer).length;
  const downloaded = performance.now();
  console.warn(
    JSON.stringify({
      lines,
      state: state.state,
      linesDone: state.progress.linesDone,
      submitSeconds: +((submitted - started) / 1000).toFixed(2),
      processSeconds: +((processed - submitted) / 1000).toFixed(2),
      downloadSeconds: +((downloaded - processed) / 1000).toFixed(2),
      totalSeconds: +((downloaded - started) / 1000).toFixed(2),
      resultBytes: bytes,
      baselineRssMiB: Math.round(baselineRss / 2 ** 20),
      peakRssMiB: Math.round(peakRss / 2 ** 20),
    }),
  );
} finally {
  clearInterval(sampler);
  await jobs.shutdown();
  await mongo.connection.dropDatabase();
  await mongo.shutdown();
  await rm(directory, { recursive: true, force: true });
}
