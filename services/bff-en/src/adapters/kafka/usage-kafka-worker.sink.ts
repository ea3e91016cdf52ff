import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { UnavailableError, startModuleWorker, type Component } from '@ipdata/common';
import type { UsageEventSink } from '../../usage/usage.ports.js';
import type { FromUsageKafkaWorker, ToUsageKafkaWorker, UsageKafkaWorkerData } from './usage-kafka-worker.messages.js';

const CLOSE_TIMEOUT_MS = 15_000;

/**
 * The usage ledger's sink with kafkajs on a worker thread (usage-kafka.worker.ts runs the
 * UsageKafkaSink there). kafkajs encodes and checksums every record in JavaScript: on the main
 * thread a send of a thousand records held the event loop for tens of milliseconds, which was the
 * public API's p99 (scripts/bench/public-api.bench.ts). Here the main thread only posts each
 * batch's bytes. A worker that dies fails its sends with UnavailableError (the ledger keeps them in its
 * journal and sends again) and the next send starts a new one.
 */
export class UsageKafkaWorkerSink implements UsageEventSink, Component {
  readonly name = 'usage-kafka-sink';
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private closed = false;

  private constructor(
    private readonly config: UsageKafkaWorkerData,
    private readonly logger: Logger,
  ) {}

  static fromConfig(config: UsageKafkaWorkerData, logger: Logger): UsageKafkaWorkerSink {
    return new UsageKafkaWorkerSink(config, logger.child({ module: 'usage-kafka-sink' }));
  }

  /** Resolves once the worker runs (Kafka need not be reachable); rejects when it cannot load. */
  async start(): Promise<void> {
    await this.ready(this.spawn());
  }

  /**
   * Posts a copy of the batch's bytes, handed over (transferred) to the worker, which builds the
   * records: no object per event, and only the bytes in use (posting the view itself would clone
   * all of the ledger's batch buffer, ~1 MiB once grown).
   */
  sendEvents(topic: string, eventType: string, frames: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new UnavailableError('usage Kafka sink is shut down'));
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    const copy = new Uint8Array(frames);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'send', id, topic, eventType, frames: copy } satisfies ToUsageKafkaWorker, [copy.buffer]);
    });
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (worker === undefined) return;
    const exited = once(worker, 'exit');
    worker.postMessage({ type: 'close' } satisfies ToUsageKafkaWorker);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Worker {
    // No process flags: the telemetry register services.sh preloads would start a second SDK in the worker.
    const worker = startModuleWorker(import.meta.url, './usage-kafka.worker', { workerData: this.config, execArgv: [] });
    worker.on('message', (message: FromUsageKafkaWorker) => {
      if (message.type === 'ready') return;
      const waiting = this.pending.get(message.id);
      if (waiting === undefined) return;
      this.pending.delete(message.id);
      if (message.type === 'sent') waiting.resolve();
      else waiting.reject(new UnavailableError(message.message));
    });
    worker.on('error', (error) => this.logger.error({ err: error }, 'usage Kafka worker failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const error = new UnavailableError(`usage Kafka worker exited (code ${code})`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  private ready(worker: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: FromUsageKafkaWorker) => {
        if (message.type !== 'ready') return;
        worker.off('exit', onExit);
        worker.off('message', onMessage);
        resolve();
      };
      const onExit = (code: number) => reject(new Error(`usage Kafka worker exited at start (code ${code})`));
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }
}
