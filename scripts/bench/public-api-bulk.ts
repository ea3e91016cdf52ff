/**
 * One bulk job of the public API benchmark: upload a file of addresses to POST /v1/bulk
 * (streamed from disk), poll GET /v1/bulk/{id} until the job finishes, stream the result and
 * count its lines, sampling bff-en's RSS all along.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryMiB, round, sampleRss } from './public-api-support.js';

/** The bulk engine's final states (@ipdata/bulk-jobs FINISHED_STATES). */
const FINISHED = new Set(['completed', 'quota_exhausted', 'failed']);

interface Answer {
  status: number;
  body: string;
}

/** POSTs a file as the body, streamed: the client holds no copy of the 1,000,000 lines either. */
function upload(url: string, file: string, apiKey: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'text/plain',
          'content-length': statSync(file).size,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.once('error', reject);
    createReadStream(file).once('error', reject).pipe(req);
  });
}

/** Streams the result and counts its lines (without holding it). */
async function countResultLines(url: string, apiKey: string): Promise<{ status: number; lines: number; bytes: number }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    const bytesOf = chunk as Uint8Array;
    bytes += bytesOf.length;
    for (let i = 0; i < bytesOf.length; i++) if (bytesOf[i] === 10) lines++;
  }
  return { status: response.status, lines, bytes };
}

export interface BulkFigures {
  readonly state: string;
  readonly lines: number;
  readonly upload_s: number;
  /** From the start of the upload until GET /v1/bulk/{id} says the job finished. */
  readonly wall_s: number;
  readonly lines_per_s: number;
  readonly result_download_s: number;
  readonly result_lines: number;
  readonly result_mib: number;
  readonly rss_before_mib: number;
  /** Highest VmRSS sampled every 100 ms from the upload to the end of the result download. */
  readonly rss_peak_sampled_mib: number;
  readonly rss_after_mib: number;
  /** VmHWM: the process's peak RSS since it started (a fresh bff-en is used for the bulk section). */
  readonly vm_hwm_mib: number;
  /** RSS samples at 10 %, 50 % and 90 % of the job's wall time: flat, or growing with the file. */
  readonly rss_at_10_50_90_mib: readonly number[];
  /** Full GCs during the job (public-api-heap-trace.mjs), and the V8 heap each left: what the process still held. */
  readonly full_gcs?: number;
  readonly heap_after_full_gc_first_last_max_mib?: readonly number[];
}

/** The heap trace's lines (public-api-heap-trace.mjs) between two instants. */
function heapAfterFullGcs(traceFile: string, fromMs: number, toMs: number): number[] {
  if (!existsSync(traceFile)) return [];
  return readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { at_ms: number; used_mib: number })
    .filter((entry) => entry.at_ms >= fromMs && entry.at_ms <= toMs)
    .map((entry) => entry.used_mib);
}

export async function runBulkJob(
  origin: string,
  pid: number,
  file: string,
  apiKey: string,
  lines: number,
  heapTraceFile?: string,
): Promise<BulkFigures> {
  const startedAt = Date.now();
  const before = memoryMiB(pid);
  const sampler = sampleRss(pid);
  const started = performance.now();
  const accepted = await upload(`${origin}/v1/bulk`, file, apiKey);
  const uploadSeconds = (performance.now() - started) / 1000;
  if (accepted.status !== 202) {
    sampler.stop();
    throw new Error(`POST /v1/bulk answered ${accepted.status}: ${accepted.body.slice(0, 300)}`);
  }
  const job = JSON.parse(accepted.body) as { id?: string; job_id?: string };
  const id = job.id ?? job.job_id;
  if (id === undefined) throw new Error(`POST /v1/bulk answered no job id: ${accepted.body.slice(0, 300)}`);
  let state = '';
  const deadline = Date.now() + 600_000;
  while (!FINISHED.has(state)) {
    if (Date.now() > deadline) throw new Error(`bulk job ${id} not finished after 10 minutes (state ${state})`);
    await sleep(100);
    const answer = await fetch(`${origin}/v1/bulk/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const view = (await answer.json()) as { state?: string; status?: string };
    state = view.state ?? view.status ?? `http ${answer.status}`;
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const downloadStarted = performance.now();
  const result = await countResultLines(`${origin}/v1/bulk/${id}/result`, apiKey);
  const downloadSeconds = (performance.now() - downloadStarted) / 1000;
  const samples = sampler.stop();
  const after = memoryMiB(pid);
  const during = samples.filter((sample) => sample.t_ms <= wallSeconds * 1000);
  const at = (share: number) => during[Math.min(during.length - 1, Math.floor(share * during.length))]?.rss_mib ?? 0;
  const heap = heapTraceFile === undefined ? [] : heapAfterFullGcs(heapTraceFile, startedAt, Date.now());
  return {
    state,
    lines,
    upload_s: round(uploadSeconds),
    wall_s: round(wallSeconds),
    lines_per_s: Math.round(lines / wallSeconds),
    result_download_s: round(downloadSeconds),
    result_lines: result.lines,
    result_mib: round(result.bytes / 2 ** 20, 1),
    rss_before_mib: before.rss,
    rss_peak_sampled_mib: Math.max(before.rss, ...samples.map((sample) => sample.rss_mib)),
    rss_after_mib: after.rss,
    vm_hwm_mib: after.hwm,
    rss_at_10_50_90_mib: [at(0.1), at(0.5), at(0.9)],
    ...(heap.length === 0
      ? {}
      : { full_gcs: heap.length, heap_after_full_gc_first_last_max_mib: [heap[0] ?? 0, heap.at(-1) ?? 0, Math.max(...heap)] }),
  };
}
