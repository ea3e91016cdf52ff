import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRowsBomb } from './fixtures/hostile-xlsx.js';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// upload_ip_xlsx against a zip bomb, through the real stack (fixtures/bff-cn-harness.ts): a
// ~40 KB .xlsx holding 20 MB of empty rows is refused at the row bound, a visitor past the batch
// limit is answered 429 before it is read, and other calls keep answering meanwhile. Asserted as
// the issue states them: each hostile upload costs under 1 s of the process's CPU (bff-cn runs in
// this process; CPU, not the wall clock), and single lookups while the uploads are in flight take
// at most twice their median without, both medians of the same round (measured without the
// bounds: 5.3 s of CPU per upload, lookups 3.7 times slower). The counts of work done are asserted by the unit tests
// beside the code (src/batch/xlsx-bounds.test.ts).

const h = new BffCnHarness({
  UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
  BATCH_RATE_LIMIT: '3',
  LOOKUP_RATE_LIMIT: '1000000',
});
beforeAll(() => h.start(), 120_000);
afterAll(() => h.stop());

/** How many hostile uploads (one after the other) the latency is measured during, per round. */
const HOSTILE_UPLOADS = Number(process.env['HOSTILE_UPLOADS'] ?? 10);
/** What one hostile upload may cost (issue 51): CPU, generous for a loaded machine. */
const HOSTILE_CPU_MS = 1_000;
/** Lookups during the uploads may take this many times their median without (issue 51). */
const MAX_SLOWDOWN = 2;
/**
 * The tolerance for a noisy shared machine: the baseline median is taken as at least 5 ms (a
 * loopback lookup can answer in 1-2 ms, where a scheduler hiccup alone doubles it), and a round
 * over the ratio is measured again, up to three rounds: only a slowdown seen every time fails.
 */
const BASELINE_FLOOR_MS = 5;
const ROUNDS = 3;
const TOO_LARGE = '文件过大或行数过多（空行也计入），请分批查询';
const UA = 'batch-bounds-test-browser';

const bomb = emptyRowsBomb();

async function upload(data: Buffer, from: string): Promise<{ code: number; msg: string }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(data)]), 'bomb.xlsx');
  const response = await fetch(`${h.base}/v1/upload_ip_xlsx`, {
    method: 'POST',
    body: form,
    headers: { 'x-forwarded-for': from, 'user-agent': UA },
  });
  // An .xlsx answer (the file was read as a batch): code 200.
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) {
    await response.arrayBuffer();
    return { code: response.status, msg: 'xlsx answer' };
  }
  return (await response.json()) as { code: number; msg: string };
}

/** An upload's answer and the process's CPU meanwhile (bff-cn runs in this process). */
async function measured(data: Buffer, from: string) {
  const before = process.cpuUsage();
  const started = performance.now();
  const answer = await upload(data, from);
  const cpu = process.cpuUsage(before);
  return { answer, cpuMs: (cpu.user + cpu.system) / 1000, ms: performance.now() - started };
}

/** Single lookups one after the other until `until` settles (or `count` of them without it); their latencies. */
async function lookups(count: number, until?: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until?.finally(() => (done = true));
  const latencies: number[] = [];
  while (until === undefined ? latencies.length < count : !done || latencies.length < 5) {
    const started = performance.now();
    const answer = await h.call('/v1/ip_search_zone', { form: { ip: '8.8.8.8' } });
    latencies.push(performance.now() - started);
    expect(answer.body.code).toBe(200);
  }
  return latencies;
}

function median(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Hostile uploads one after the other (each from its own visitor), lookups meanwhile. */
async function lookupsDuringUploads(): Promise<{ during: number[]; answers: Array<{ code: number; msg: string }> }> {
  const uploads = (async () => {
    const answers = [];
    for (let i = 0; i < HOSTILE_UPLOADS; i++) answers.push(await upload(bomb, randomVisitor()));
    return answers;
  })();
  const during = await lookups(0, uploads);
  return { during, answers: await uploads };
}

/** One round: lookups alone, then during the uploads; the ratio of their medians (baseline floored). */
async function latencyRound(round: number): Promise<number> {
  const alone = await lookups(100);
  const { during, answers } = await lookupsDuringUploads();
  const ratio = median(during) / Math.max(median(alone), BASELINE_FLOOR_MS);
  process.stdout.write(
    `round ${round}: ip_search_zone alone ${summary(alone)}; during ${HOSTILE_UPLOADS} hostile uploads ${summary(during)}; ` +
      `median ratio ${ratio.toFixed(2)}\n`,
  );
  for (const answer of answers) expect(answer).toMatchObject({ code: 400, msg: TOO_LARGE });
  // Enough lookups answered while the uploads were in flight for a median to mean something.
  expect(during.length).toBeGreaterThanOrEqual(5);
  return ratio;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `n=${sorted.length} p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
}

describe('upload_ip_xlsx bounds', () => {
  // The figures are printed before anything is asserted, so a run of the code before the bounds measures too.
  it('refuses 20 MB of empty rows in a ~40 KB .xlsx at the row bound within 1 s of CPU, lookups meanwhile at most 2x slower', async () => {
    expect(bomb.length).toBeLessThan(64 * 1024);
    await lookups(50); // warm-up
    const first = await measured(bomb, randomVisitor());
    process.stdout.write(
      `hostile upload (${bomb.length} B): code ${first.answer.code} in ${first.ms.toFixed(0)} ms, process CPU ${first.cpuMs.toFixed(0)} ms\n`,
    );
    const ratios = [await latencyRound(1)];
    expect(first.answer).toMatchObject({ code: 400, msg: TOO_LARGE });
    expect(first.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    while (ratios.at(-1)! > MAX_SLOWDOWN && ratios.length < ROUNDS) ratios.push(await latencyRound(ratios.length + 1));
    expect(Math.min(...ratios)).toBeLessThanOrEqual(MAX_SLOWDOWN);
  }, 300_000);

  it('answers a visitor past the batch limit 429 before the file is read', async () => {
    const from = randomVisitor();
    const counted = [];
    for (let i = 0; i < 3; i++) counted.push(await upload(bomb, from));
    const refused = await measured(bomb, from);
    process.stdout.write(
      `hostile upload past the limit: code ${refused.answer.code} in ${refused.ms.toFixed(0)} ms, process CPU ${refused.cpuMs.toFixed(0)} ms\n`,
    );
    for (const answer of counted) expect(answer).toMatchObject({ code: 400, msg: TOO_LARGE });
    expect(refused.answer).toEqual({ code: 429, msg: '批量查询过于频繁，请稍后再试', data: null });
    expect(refused.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
  }, 300_000);
});
