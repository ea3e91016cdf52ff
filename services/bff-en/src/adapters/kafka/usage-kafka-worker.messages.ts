import type { UsageKafkaRecord } from '../../usage/usage.ports.js';

/** What the worker needs to build its Kafka client and logger (structured-cloned at start). */
export interface UsageKafkaWorkerData {
  brokers: readonly string[];
  clientId: string;
  logLevel: string;
  sendTimeoutMs?: number;
}

export type ToUsageKafkaWorker = { type: 'send'; id: number; topic: string; records: UsageKafkaRecord[] } | { type: 'close' };

export type FromUsageKafkaWorker =
  { type: 'ready' } | { type: 'sent'; id: number } | { type: 'failed'; id: number; message: string };
