/**
 * What one POST /v1/batch of 1,000 random public IPv4 addresses costs each stage in process,
 * without sockets or other processes: the engine's BatchLookupCompact encoding, bff-en's decoding
 * of it, and bff-en's JSON body (views/batch-json.ts), beside the general way measured in the
 * same run on the same answers (views built per answer, JSON.stringify, UTF-8 encoded). One core,
 * so its medians move far less than the end-to-end figure of public-api.bench.ts on this shared
 * machine: use it to tell whether a change to these stages helps.
 *
 *   make bench-render [BENCH_ARGS="--runs 5 --batches 100"]
 *   make bench-render BENCH_ARGS="--save-build before"   # keep today's build under var/bench-builds/
 *   make bench-render BENCH_ARGS="--against before"      # then, after a change: both, interleaved
 *
 * Prints one JSON line per run (µs per batch of each stage) and a summary with medians and the
 * ratio of the general way to batch-json. `decode_and_render_one_batch_us` renders one batch over
 * and over, its parts hot in the CPU's caches: how much of the rendering waits on memory.
 *
 * `--against <name>` measures a saved build too (the lookup engine's and bff-en's dist folders as
 * `--save-build <name>` copied them; common and proto come from today's build; public-api.bench.ts
 * takes the same `--against <name>` for bff-en), the two in turn
 * within every run and in alternating order, and reports the median of each run's ratio
 * (`render_vs_against`: below 1 means today's build is faster). Run one after the other, two
 * builds' medians differed by more than the change being judged (5-25% swings on this machine);
 * interleaved, the same change showed in 15 of 16 pairs.
 *
 * Needs a built dataset (make dataset) and the services built (make build). Bounded: fixed
 * address sets, a fixed number of runs.
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as BatchLookup from '../../services/bff-en/src/public-api/batch-lookup.js';
import type { BatchItem } from '../../services/bff-en/src/public-api/batch-lookup.js';
import type * as BatchJson from '../../services/bff-en/src/public-api/views/batch-json.js';
import type * as IpInfoViewModule from '../../services/bff-en/src/public-api/views/ip-info.view.js';
import type * as CompactBatchDecoder from '../../services/lookup-engine/src/client/compact-batch-decoder.js';
import type * as DatasetStore from '../../services/lookup-engine/src/dataset/dataset-store.js';
import type * as LoadedDatasetModule from '../../services/lookup-engine/src/dataset/loaded-dataset.js';
import type * as CompactBatchEncoderModule from '../../services/lookup-engine/src/lookup/compact-batch-encoder.js';
import {
  emit,
  median,
  numberOption,
  repoRoot,
  SAVED_BUILD_FOLDERS,
  savedBuildDir as savedBuild,
  textOption,
} from './bench-support.js';
import { randomPublicIpv4 } from './public-api-support.js';

const runs = numberOption('runs', 5);
const batchCount = numberOption('batches', 100);
const saveAs = textOption('save-build');
const against = textOption('against');

if (saveAs !== undefined) {
  for (const folder of SAVED_BUILD_FOLDERS) cpSync(join(repoRoot, folder), join(savedBuild(saveAs), folder), { recursive: true });
  emit({ bench: 'saved_build', name: saveAs, folder: savedBuild(saveAs) });
  process.exit(0);
}

/**
 * The stages of the build under `root`, as built (make build), as the services run them, not
 * through tsx: tsx keeps function names with a helper call per closure made (4.6% of the
 * rendering's CPU profile under tsx).
 */
async function stagesOf(root: string) {
  const built = async <T>(path: string): Promise<T> => (await import(join(root, path))) as T;
  const { decodeCompactBatch } = await built<typeof CompactBatchDecoder>(
    'services/lookup-engine/dist/client/compact-batch-decoder.js',
  );
  const { newestDatasetFile } = await built<typeof DatasetStore>('services/lookup-engine/dist/dataset/dataset-store.js');
  const { LoadedDataset } = await built<typeof LoadedDatasetModule>('services/lookup-engine/dist/dataset/loaded-dataset.js');
  const { CompactBatchEncoder } = await built<typeof CompactBatchEncoderModule>(
    'services/lookup-engine/dist/lookup/compact-batch-encoder.js',
  );
  const { mapBatchItems } = await built<typeof BatchLookup>('services/bff-en/dist/public-api/batch-lookup.js');
  const { batchJsonBody } = await built<typeof BatchJson>('services/bff-en/dist/public-api/views/batch-json.js');
  const { ipInfoView } = await built<typeof IpInfoViewModule>('services/bff-en/dist/public-api/views/ip-info.view.js');
  const datasetFile = newestDatasetFile(process.env['DATASETS_DIR'] ?? join(repoRoot, 'var/datasets'));
  if (datasetFile === undefined) throw new Error('no dataset under var/datasets; run make dataset');
  const encoder = new CompactBatchEncoder(await LoadedDataset.fromFile(datasetFile));
  const itemsOf = (bytes: Buffer): BatchItem[] => {
    const batch = decodeCompactBatch(bytes);
    // Older saved builds (--against) keep an answers array, not batch.length.
    const length = batch.length ?? (batch as unknown as { answers: unknown[] }).answers.length;
    return Array.from({ length }, (_, at) => ({ batch, at }));
  };
  return { datasetFile, encoder, decodeCompactBatch, batchJsonBody, mapBatchItems, ipInfoView, itemsOf };
}

type Stages = Awaited<ReturnType<typeof stagesOf>>;

const addresses = randomPublicIpv4(batchCount * 1_000, 31);
const batches = Array.from({ length: batchCount }, (_, b) => addresses.slice(b * 1_000, b * 1_000 + 1_000));
const now = Date.now();
const refused = () => '';

/** µs per batch of `stage` over every batch (one pass). */
function perBatch(stage: (batch: number) => void): number {
  const start = performance.now();
  for (let b = 0; b < batchCount; b++) stage(b);
  return ((performance.now() - start) * 1_000) / batchCount;
}

/** One build's stages with its own encoded batches, warmed up as a serving bff-en is after its first batches. */
function prepared(stages: Stages) {
  const encoded = batches.map((ips) => stages.encoder.encode(ips, now));
  for (const bytes of encoded) stages.batchJsonBody(stages.itemsOf(bytes), refused);
  return { ...stages, encoded };
}

function measureRun(build: ReturnType<typeof prepared>): Record<string, number> {
  const { encoder, encoded, itemsOf } = build;
  return {
    encode_us: perBatch((b) => encoder.encode(batches[b] as string[], now)),
    decode_us: perBatch((b) => build.decodeCompactBatch(encoded[b] as Buffer)),
    decode_and_render_us: perBatch((b) => build.batchJsonBody(itemsOf(encoded[b] as Buffer), refused)),
    // One batch over and over: its parts stay in the CPU's caches, which 100 batches' parts do not.
    decode_and_render_one_batch_us: perBatch(() => build.batchJsonBody(itemsOf(encoded[0] as Buffer), refused)),
    decode_and_general_us: perBatch((b) =>
      Buffer.from(JSON.stringify(build.mapBatchItems<unknown>(itemsOf(encoded[b] as Buffer), build.ipInfoView, refused)), 'utf8'),
    ),
  };
}

if (against !== undefined && !existsSync(savedBuild(against))) {
  console.error(`bench: no saved build ${against}; make one with --save-build ${against}`);
  process.exit(1);
}
const current = prepared(await stagesOf(repoRoot));
const other = against === undefined ? undefined : prepared(await stagesOf(savedBuild(against)));

const rows: Array<Record<string, number>> = [];
const otherRows: Array<Record<string, number>> = [];
for (let run = 1; run <= runs; run++) {
  // Alternating order: neither build always runs right after the other's garbage.
  const measureOther = () => other && { run, ...measureRun(other) };
  const first = run % 2 === 0 ? measureOther() : undefined;
  const row = { run, ...measureRun(current) };
  const second = first ?? measureOther();
  rows.push(row);
  emit({ bench: 'batch_render', build: 'current', ...row });
  if (second !== undefined) {
    otherRows.push(second);
    emit({ bench: 'batch_render', build: against, ...second });
  }
}
const med = (from: Array<Record<string, number>>, key: string) => Math.round(median(from.map((row) => row[key] as number)));
const medians = (from: Array<Record<string, number>>) =>
  Object.fromEntries(
    ['encode_us', 'decode_us', 'decode_and_render_us', 'decode_and_render_one_batch_us', 'decode_and_general_us'].map((key) => [
      key,
      med(from, key),
    ]),
  );
emit({
  bench: 'summary',
  runs,
  batches: batchCount,
  dataset: current.datasetFile,
  ...medians(rows),
  general_over_render: Number((med(rows, 'decode_and_general_us') / med(rows, 'decode_and_render_us')).toFixed(2)),
  ...(other === undefined
    ? {}
    : {
        against,
        against_medians: medians(otherRows),
        render_vs_against: Number(
          median(
            rows.map((row, i) => (row['decode_and_render_us'] as number) / (otherRows[i]?.['decode_and_render_us'] as number)),
          ).toFixed(3),
        ),
        render_faster_in_runs: rows.filter(
          (row, i) => (row['decode_and_render_us'] as number) < (otherRows[i]?.['decode_and_render_us'] as number),
        ).length,
      }),
});
