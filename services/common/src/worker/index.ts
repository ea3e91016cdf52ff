/**
 * '@ipdata/common/worker': what a worker thread that talks to Kafka needs (the client, the
 * partitioner, CloudEvents headers, the logger, the error types), without the main index's gRPC,
 * Mongo, Redis and telemetry modules. A worker is an isolate of its own: whatever it imports stays
 * live in its heap, and every full GC there marks it again. The main index made bff-en's ledger
 * worker hold ~30 MB live, this ~7 MB (services/bff-en/README.md, "The hot path").
 */
export { errorText } from '../errors/error-text.js';
export { UnavailableError } from '../errors/domain-errors.js';
export { cloudEventHeaders } from '../kafka/cloudevents.js';
export { createKafka, type KafkaConfig } from '../kafka/kafka-client.js';
export { Murmur2Partitioner, keyPartition, murmur2 } from '../kafka/murmur2-partitioner.js';
export { crc32c } from '../kafka/crc32c.js';
export { createLogger, type Logger } from '../logger/logger.js';
export { lowerThreadPriority } from './thread-priority.js';
