/**
 * The worker thread of UsageKafkaWorkerSink: runs the usage ledger's UsageKafkaSink (kafkajs)
 * off the main thread and answers each send with `sent` or `failed`. Sends arrive one at a time
 * (the ledger has one batch in flight), so journal order is kept.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createKafka, createLogger, errorText, lowerThreadPriority } from '@ipdata/common/worker';
import { frameCount } from '../../usage/usage-event-frames.js';
import type { FromUsageKafkaWorker, ToUsageKafkaWorker, UsageKafkaWorkerData } from './usage-kafka-worker.messages.js';
import { UsageKafkaSink } from './usage-kafka.sink.js';

const port = parentPort;
if (port === null) throw new Error('usage-kafka.worker runs only as a worker thread');
const config = workerData as UsageKafkaWorkerData;
const logger = createLogger({ service: 'bff-en', level: config.logLevel }).child({ thread: 'usage-kafka-worker' });
if (config.nice !== undefined && config.nice > 0) {
  // Sending usage is background work (events wait in the journal meanwhile): on cores shared with
  // the main thread, answering requests goes first (README.md, "The hot path").
  const tid = lowerThreadPriority(config.nice);
  logger.debug({ tid, nice: config.nice }, tid === undefined ? 'thread priority not supported here' : 'thread priority lowered');
}
const kafka = createKafka({ brokers: config.brokers, clientId: config.clientId }, logger);
const sink = UsageKafkaSink.fromConfig(
  { kafka, ...(config.sendTimeoutMs === undefined ? {} : { sendTimeoutMs: config.sendTimeoutMs }) },
  logger,
);
await sink.start();

const answer = (message: FromUsageKafkaWorker) => port.postMessage(message);

port.on('message', (message: ToUsageKafkaWorker) => {
  if (message.type === 'close') {
    void sink.shutdown().finally(() => port.close());
    return;
  }
  const { id } = message;
  // Outside the send's promise on purpose: a batch that is not frames is a bug, and the worker
  // dies (the sink then fails the sends in flight and starts a new worker).
  frameCount(message.frames);
  sink.sendEvents(message.topic, message.eventType, message.frames).then(
    () => answer({ type: 'sent', id }),
    (error: unknown) => answer({ type: 'failed', id, message: errorText(error) }),
  );
});
answer({ type: 'ready' });
