/**
 * What one POST /v1/batch of 1,000 random public IPv4 addresses costs each stage in process,
 * without sockets or other processes: the engine's BatchLookupCompact encoding, bff-en's decoding
 * of it, and bff-en's JSON body (views/batch-json.ts), beside the general way measured in the
 * same run on the same answers (views built per answer, JSON.stringify, UTF-8 encoded). One core,
 * so its medians move far less than the end-to-end figure of public-api.bench.ts on this shared
 * machine: use it to tell whether a change to these stages helps.
 *
 *   make bench-render [BENCH_ARGS="--runs 5 --batches 100"]
 *
 * Prints one JSON line per run (µs per batch of each stage) and a summary with medians and the
 * ratio of the general way to batch-json. `decode_and_render_one_batch_us` renders one batch over
 * and over, its parts hot in the CPU's caches: how much of the rendering waits on memory. Needs a built dataset (make dataset) and the services
 * built (make build). Bounded: fixed
 * address sets, a fixed number of runs.
 */
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
import { emit, median, numberOption, repoRoot } from './bench-support.js';
import { randomPublicIpv4 } from './public-api-support.js';

/**
 * The stages as built (make build), as the services run them, not through tsx: tsx keeps function
 * names with a helper call per closure made (4.6% of the rendering's CPU profile under tsx).
 */
const built = async <T>(path: string): Promise<T> => (await import(join(repoRoot, path))) as T;
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

const runs = numberOption('runs', 5);
const batchCount = numberOption('batches', 100);
const datasetFile = newestDatasetFile(process.env['DATASETS_DIR'] ?? join(repoRoot, 'var/datasets'));
if (datasetFile === undefined) {
  console.error('bench: no dataset under var/datasets; run make dataset');
  process.exit(1);
}
const dataset = await LoadedDataset.fromFile(datasetFile);
const encoder = new CompactBatchEncoder(dataset);
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

const encoded = batches.map((ips) => encoder.encode(ips, now));
const itemsOf = (bytes: Buffer): BatchItem[] => {
  const batch = decodeCompactBatch(bytes);
  return batch.answers.map((_, at) => ({ batch, at }));
};
// Warm-up: every part met once, as a serving bff-en has after its first batches.
for (const bytes of encoded) batchJsonBody(itemsOf(bytes), refused);

const rows: Array<Record<string, number>> = [];
for (let run = 1; run <= runs; run++) {
  const encode = perBatch((b) => encoder.encode(batches[b] as string[], now));
  const decode = perBatch((b) => decodeCompactBatch(encoded[b] as Buffer));
  const render = perBatch((b) => batchJsonBody(itemsOf(encoded[b] as Buffer), refused));
  // One batch over and over: its parts stay in the CPU's caches, which 100 batches' parts do not.
  const renderOne = perBatch(() => batchJsonBody(itemsOf(encoded[0] as Buffer), refused));
  const general = perBatch((b) =>
    Buffer.from(JSON.stringify(mapBatchItems<unknown>(itemsOf(encoded[b] as Buffer), ipInfoView, refused)), 'utf8'),
  );
  const row = {
    run,
    encode_us: encode,
    decode_us: decode,
    decode_and_render_us: render,
    decode_and_render_one_batch_us: renderOne,
    decode_and_general_us: general,
  };
  rows.push(row);
  emit({ bench: 'batch_render', ...row });
}
const med = (key: string) => Math.round(median(rows.map((row) => row[key] as number)));
emit({
  bench: 'summary',
  runs,
  batches: batchCount,
  dataset: datasetFile,
  encode_us: med('encode_us'),
  decode_us: med('decode_us'),
  decode_and_render_us: med('decode_and_render_us'),
  decode_and_render_one_batch_us: med('decode_and_render_one_batch_us'),
  decode_and_general_us: med('decode_and_general_us'),
  general_over_render: Number((med('decode_and_general_us') / med('decode_and_render_us')).toFixed(2)),
});
