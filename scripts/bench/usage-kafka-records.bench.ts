/**
 * What one usage event costs bff-en's ledger producer in CPU (issue 11: the accounting's share
 * of the public API's budget): usage records exactly as the ledger sends them (the journal's
 * encoded UsageEvent, its key, CloudEvents binary-mode headers) through the ledger's own
 * UsageKafkaSink to the stack's broker, beside the same records without headers as the in-run
 * baseline. CPU is this process's user+system time (process.cpuUsage) per record, acknowledged
 * batches of --batch records (the ledger's USAGE_LEDGER_BATCH default). Prints one JSON line per
 * run and a summary with medians; never asserts.
 *
 *   make stack-up
 *   node --conditions=source --import tsx scripts/bench/usage-kafka-records.bench.ts [--records 50000] [--batch 2000] [--runs 3]
 *
 * Finding it was written for (2026-11-26): kafkajs 2.2 encodes each header with a new Encoder,
 * which allocates a zeroed 512-byte Buffer, so the six CloudEvents headers cost about twice the
 * rest of a record. patches/kafkajs+2.2.4.patch and common's Murmur2Partitioner took a record with
 * its headers from 56.7 to 24.7 µs (2026-11-27, medians of 3 runs on the same machine).
 *
 * `ledger_frames_*` is what the ledger really sends: the journal's frames through `sendEvents`,
 * written as one record batch per partition by usageRecordBatches and sent as they are by the
 * patched kafkajs (since 2026-11-30; from 2026-11-28 each record was written from its key on and
 * framed by kafkajs), the CPU counted from the frames (building the batches included).
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { TOPICS, cloudEventHeaders, createKafka, ensureTopics } from '@ipdata/common';
import { UsageKafkaSink } from '../../services/bff-en/src/adapters/kafka/usage-kafka.sink.js';
import { encodeUsageRecord, maxEncodedBytes } from '../../services/bff-en/src/usage/usage-event.codec.js';
import { UsageChannel, UsageResult, usageEventKey, type UsageRecord } from '../../services/bff-en/src/usage/usage-record.js';
import { UsageEventFrames } from '../../services/bff-en/src/usage/usage-event-frames.js';
import type { UsageKafkaRecord } from '../../services/bff-en/src/usage/usage.ports.js';
import { deleteScratchTopic, emit, median } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '50000' },
    batch: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
  },
});
const records = Math.max(1, Number(args.records));
const batchSize = Math.max(1, Number(args.batch));
const runs = Math.max(1, Number(args.runs));
const brokers = (process.env['KAFKA_BROKERS'] ?? `127.0.0.1:${process.env['KAFKA_PORT'] ?? 9092}`).split(',');
const logger = pino({ level: 'warn' });
const kafka = createKafka({ brokers, clientId: 'bench-usage-records' }, logger);
const topic = `bench.usage-records.${process.pid}`;

/** The ledger's records (usage-ledger.ts toKafkaRecord), for `count` requests of 50 accounts. */
function ledgerRecords(count: number, withHeaders: boolean): UsageKafkaRecord[] {
  const source = 'bff-en';
  const scratch = Buffer.allocUnsafe(4096);
  const out: UsageKafkaRecord[] = [];
  const start = Date.now();
  for (let i = 0; i < count; i++) {
    const record: UsageRecord = {
      requestId: `01JBENCH${String(i).padStart(18, '0')}`,
      channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
      accountId: `acct_${String(i % 50).padStart(20, '0')}`,
      apiKeyId: `key_${String(i % 150).padStart(20, '0')}`,
      visitorId: '',
      endpoint: '/v1/ip/{ip}',
      ip: `${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}.7`,
      ipVersion: 4,
      countryCode: 'US',
      province: '',
      result: UsageResult.USAGE_RESULT_FOUND,
      httpStatus: 200,
      latencyMs: 3,
      count: 1,
      freeCount: 0,
      time: new Date(start + i),
    };
    if (scratch.length < maxEncodedBytes(record, source)) throw new Error('record larger than the scratch buffer');
    const end = encodeUsageRecord(record, source, scratch, 0);
    const headers = cloudEventHeaders({
      id: record.requestId,
      type: TOPICS.usageLookup.eventType,
      source,
      time: record.time.toISOString(),
    });
    out.push({
      key: usageEventKey(record),
      value: Buffer.from(scratch.subarray(0, end)),
      headers: withHeaders ? headers : {},
      timestamp: String(record.time.getTime()),
    });
  }
  return out;
}

async function sendAll(sink: UsageKafkaSink, all: UsageKafkaRecord[]): Promise<{ cpuUsPerRecord: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const startedAt = performance.now();
  for (let at = 0; at < all.length; at += batchSize) await sink.sendRaw(topic, all.slice(at, at + batchSize));
  const used = process.cpuUsage(cpu);
  return { cpuUsPerRecord: (used.user + used.system) / all.length, wallMs: performance.now() - startedAt };
}

/** The same records as the ledger holds them: frames of each batch's events (usage-event-frames.ts). */
function ledgerFrames(all: UsageKafkaRecord[]): Uint8Array[] {
  const batches: Uint8Array[] = [];
  const segment = { seq: 1, path: 'bench', bytes: 0, events: 0, counted: true, sealed: false, acked: 0 };
  for (let at = 0; at < all.length; at += batchSize) {
    const frames = new UsageEventFrames();
    for (const record of all.slice(at, at + batchSize)) frames.append(record.value, 0, record.value.length, segment, 0);
    batches.push(Buffer.from(frames.bytes()));
  }
  return batches;
}

async function sendFrames(sink: UsageKafkaSink, batches: Uint8Array[]): Promise<{ cpuUsPerRecord: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const startedAt = performance.now();
  for (const frames of batches) await sink.sendEvents(topic, TOPICS.usageLookup.eventType, frames);
  const used = process.cpuUsage(cpu);
  return { cpuUsPerRecord: (used.user + used.system) / records, wallMs: performance.now() - startedAt };
}

await ensureTopics(kafka, [{ name: topic, partitions: TOPICS.usageLookup.partitions, retentionMs: 3_600_000 }], logger);
const sink = UsageKafkaSink.fromConfig({ kafka }, logger);
await sink.start();
try {
  // Warm-up: connections, metadata and the JIT, with both shapes.
  await sendAll(sink, ledgerRecords(Math.min(records, 10_000), true));
  await sendAll(sink, ledgerRecords(Math.min(records, 10_000), false));
  await sendFrames(sink, ledgerFrames(ledgerRecords(Math.min(records, 10_000), true)));
  const rows: Array<Record<string, number>> = [];
  for (let run = 1; run <= runs; run++) {
    // Built before the clock starts: only the producer's work is measured.
    const withHeaders = ledgerRecords(records, true);
    const without = ledgerRecords(records, false);
    const ce = await sendAll(sink, withHeaders);
    const bare = await sendAll(sink, without);
    const framed = await sendFrames(sink, ledgerFrames(withHeaders));
    const row = {
      cloudevents_cpu_us_per_record: +ce.cpuUsPerRecord.toFixed(1),
      cloudevents_records_per_s: Math.round((records * 1000) / ce.wallMs),
      no_headers_cpu_us_per_record: +bare.cpuUsPerRecord.toFixed(1),
      no_headers_records_per_s: Math.round((records * 1000) / bare.wallMs),
      headers_cpu_ratio: +(ce.cpuUsPerRecord / bare.cpuUsPerRecord).toFixed(2),
      ledger_frames_cpu_us_per_record: +framed.cpuUsPerRecord.toFixed(1),
      ledger_frames_records_per_s: Math.round((records * 1000) / framed.wallMs),
      ledger_frames_vs_cloudevents_cpu_ratio: +(framed.cpuUsPerRecord / ce.cpuUsPerRecord).toFixed(2),
    };
    rows.push(row);
    emit({ bench: 'usage_kafka_records', run, records, batch: batchSize, ...row });
  }
  const summary: Record<string, unknown> = { bench: 'summary', runs, records, batch: batchSize };
  for (const key of Object.keys(rows[0] ?? {})) summary[key] = median(rows.map((row) => row[key] as number));
  emit(summary);
} finally {
  await sink.shutdown();
  await deleteScratchTopic(kafka, topic);
}
