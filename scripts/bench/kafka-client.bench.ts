/**
 * CPU per event of the two Kafka clients docs/adr/0002-kafka-client.md compares, in one run
 * against the same local broker: kafkajs as the services run it (common's createKafka, the patched
 * package, a plain producer with acks=-1) and @confluentinc/kafka-javascript (librdkafka) through
 * its KafkaJS-compatible API with the same settings, built from source by
 * scripts/kafka-client/build-confluent-kafka.sh (its install downloads a prebuilt binary this
 * network does not reach). Both send the same records: UsageEvent values, CloudEvents headers,
 * key per API key.
 *
 * - `batched`: sends of `--batch` records each, one at a time (an outbox relay, the usage relay).
 * - `single`: one record per send, `--in-flight` sends out at once (a service emitting events as
 *   requests come): kafkajs makes one request per send; librdkafka gathers what is queued.
 *
 * CPU is this process's user+system time (process.cpuUsage: librdkafka's own threads are in it)
 * per acknowledged event; the broker's is not. Clients alternate within each run. Prints one JSON
 * line per client, scenario and run, then one summary line per scenario with medians and the
 * ratio confluent / kafkajs (above 1 = kafkajs is cheaper); never asserts.
 *
 *   make stack-up && make bench-kafka-client        # builds confluent first when missing
 *   node --conditions=source --import tsx scripts/bench/kafka-client.bench.ts [--events 50000] [--batch 500] [--runs 3]
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Message } from 'kafkajs';
import { pino } from 'pino';
import {
  Murmur2Partitioner,
  TOPICS,
  cloudEventHeaders,
  createKafka,
  defineTopic,
  ensureTopics,
  topicSpecs,
} from '@ipdata/common';
import { UsageChannel, UsageEvent, UsageResult } from '@ipdata/proto/events/v1/usage';
import { deleteScratchTopic, drive, emit, median } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '50000' },
    singles: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '500' },
    'in-flight': { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    confluent: { type: 'string' },
  },
});
const events = Math.max(1, Number(args.events));
const singles = Math.max(1, Number(args.singles));
const batch = Math.max(1, Number(args.batch));
const inFlight = Math.max(1, Number(args['in-flight']));
const runs = Math.max(1, Number(args.runs));
const brokers = (process.env['KAFKA_BROKERS'] ?? `127.0.0.1:${process.env['KAFKA_PORT'] ?? 9092}`).split(',');
const logger = pino({ level: 'warn' });
const CONFLUENT_VERSION = process.env['CONFLUENT_KAFKA_VERSION'] ?? '1.10.1';
const confluentDir =
  args.confluent ??
  join(
    process.env['IPDATA_CACHE_DIR'] ?? join(process.env['HOME'] ?? '/root', '.cache/ipdata'),
    `kafka-client/confluent-kafka-javascript-${CONFLUENT_VERSION}/node_modules/@confluentinc/kafka-javascript`,
  );

/** The part of either client's producer the bench uses. */
interface BenchProducer {
  connect(): Promise<void>;
  send(request: { topic: string; messages: Message[] }): Promise<unknown>;
  disconnect(): Promise<void>;
}
interface Client {
  name: 'kafkajs' | 'confluent';
  producer(): BenchProducer;
}

const kafkajs = createKafka({ brokers, clientId: 'bench-kafka-client' }, logger);
const clients: Client[] = [
  {
    name: 'kafkajs',
    producer: () => {
      const producer = kafkajs.producer({ idempotent: false, maxInFlightRequests: 1, createPartitioner: Murmur2Partitioner });
      return {
        connect: () => producer.connect(),
        send: ({ topic, messages }) => producer.send({ topic, messages, acks: -1 }),
        disconnect: () => producer.disconnect(),
      };
    },
  },
];
if (existsSync(join(confluentDir, 'package.json'))) {
  const { KafkaJS } = createRequire(import.meta.url)(confluentDir) as {
    KafkaJS: { Kafka: new (config: object) => { producer(config: object): BenchProducer } };
  };
  const confluent = new KafkaJS.Kafka({ kafkaJS: { brokers, clientId: 'bench-kafka-client', logLevel: 1 } });
  // librdkafka's default partitioner for keyed records is murmur2_random, the Java clients' mapping.
  clients.push({
    name: 'confluent',
    producer: () => confluent.producer({ kafkaJS: { acks: -1, idempotent: false, maxInFlightRequests: 1 } }),
  });
} else {
  emit({
    kind: 'skipped',
    client: 'confluent',
    reason: `not built: ${confluentDir} (scripts/kafka-client/build-confluent-kafka.sh)`,
  });
}

function messages(count: number): Message[] {
  const time = new Date();
  return Array.from({ length: count }, (_, i) => {
    const id = `01JBENCH${String(i).padStart(18, '0')}`;
    const apiKeyId = `key_${String(i % 150).padStart(20, '0')}`;
    const event = UsageEvent.fromPartial({
      meta: { id, source: 'bench', time },
      channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
      apiKeyId,
      ip: `198.51.100.${i % 256}`,
      countryCode: 'DE',
      endpoint: '/v1/ip',
      result: UsageResult.USAGE_RESULT_FOUND,
      latencyMs: 2,
      count: 1,
    });
    return {
      key: apiKeyId,
      value: Buffer.from(UsageEvent.encode(event).finish()),
      headers: cloudEventHeaders({ id, type: TOPICS.usageLookup.eventType, source: 'bench', time: time.toISOString() }),
      timestamp: String(time.getTime()),
    };
  });
}

async function measure(client: Client, scenario: 'batched' | 'single', topic: string): Promise<number> {
  const producer = client.producer();
  await producer.connect();
  try {
    const count = scenario === 'batched' ? events : singles;
    // Warm-up (connections, metadata, JIT) with records of its own: confluent's send rewrites the
    // messages it is given (headers into librdkafka's form), so none is sent twice.
    await producer.send({ topic, messages: messages(Math.min(count, batch)) });
    const all = messages(count);
    const cpu = process.cpuUsage();
    const started = performance.now();
    if (scenario === 'batched') {
      for (let at = 0; at < count; at += batch) await producer.send({ topic, messages: all.slice(at, at + batch) });
    } else {
      await drive(count, inFlight, (i) => producer.send({ topic, messages: [all[i] as Message] }));
    }
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const usPerEvent = (used.user + used.system) / count;
    emit({
      kind: 'run',
      client: client.name,
      scenario,
      events: count,
      ...(scenario === 'batched' ? { batch } : { inFlight }),
      cpuUsPerEvent: Number(usPerEvent.toFixed(1)),
      eventsPerSecond: Math.round(count / seconds),
    });
    return usPerEvent;
  } finally {
    await producer.disconnect();
  }
}

const topic = defineTopic({ ...TOPICS.usageLookup, name: `bench.kafka-client.${process.pid}` });
await ensureTopics(kafkajs, topicSpecs([topic]), logger);
try {
  for (const scenario of ['batched', 'single'] as const) {
    const results = new Map<string, number[]>(clients.map((client) => [client.name, []]));
    for (let run = 0; run < runs; run++) {
      // Alternating first client per run, so neither always runs on a warmer machine.
      const order = run % 2 === 0 ? clients : [...clients].reverse();
      for (const client of order) results.get(client.name)?.push(await measure(client, scenario, topic.name));
    }
    const kafkajsUs = median(results.get('kafkajs') ?? []);
    const confluentUs = clients.length > 1 ? median(results.get('confluent') ?? []) : undefined;
    emit({
      kind: 'summary',
      scenario,
      runs,
      kafkajsCpuUsPerEvent: Number(kafkajsUs.toFixed(1)),
      ...(confluentUs === undefined
        ? {}
        : {
            confluentCpuUsPerEvent: Number(confluentUs.toFixed(1)),
            confluentOverKafkajs: Number((confluentUs / kafkajsUs).toFixed(2)),
          }),
    });
  }
} finally {
  await deleteScratchTopic(kafkajs, topic.name);
  await deleteScratchTopic(kafkajs, `${topic.name}.dlq`);
}
