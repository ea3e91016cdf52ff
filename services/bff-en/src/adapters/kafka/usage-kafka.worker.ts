/**
 * The worker thread of UsageKafkaWorkerSink: runs the usage ledger's UsageKafkaSink (kafkajs)
 * off the main thread and answers each send with `sent` or `failed`. Sends arrive one at a time
 * (the ledger has one batch in flight), so journal order is kept.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createKafka, createLogger, errorText } from '@ipdata/common';
import type { UsageKafkaRecord } from '../../usage/usage.ports.js';
import type { FromUsageKafkaWorker, ToUsageKafkaWorker, UsageKafkaWorkerData } from './usage-kafka-worker.messages.js';
import { UsageKafkaSink } from './usage-kafka.sink.js';

const port = parentPort;
if (port === null) throw new Error('usage-kafka.worker runs only as a worker thread');
const config = workerData as UsageKafkaWorkerData;
const logger = createLogger({ service: 'bff-en', level: config.logLevel }).child({ thread: 'usage-kafka-worker' });
const kafka = createKafka({ brokers: config.brokers, clientId: config.clientId }, logger);
const sink = UsageKafkaSink.fromConfig(
  { kafka, ...(config.sendTimeoutMs === undefined ? {} : { sendTimeoutMs: config.sendTimeoutMs }) },
  logger,
);
await sink.start();

const answer = (message: FromUsageKafkaWorker) => port.postMessage(message);

// Buffers arrive as plain Uint8Arrays (structured clone); kafkajs writes only Buffers as bytes.
const withBufferValue = (record: UsageKafkaRecord): UsageKafkaRecord => ({
  ...record,
  value: Buffer.from(record.value.buffer, record.value.byteOffset, record.value.byteLength),
});

port.on('message', (message: ToUsageKafkaWorker) => {
  if (message.type === 'close') {
    void sink.shutdown().finally(() => port.close());
    return;
  }
  const { id } = message;
  sink.sendRaw(message.topic, message.records.map(withBufferValue)).then(
    () => answer({ type: 'sent', id }),
    (error: unknown) => answer({ type: 'failed', id, message: errorText(error) }),
  );
});
answer({ type: 'ready' });
