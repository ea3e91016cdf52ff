import {
  createKafka,
  ensureTopics,
  EventProducer,
  GrpcServer,
  grpcServerConfigFrom,
  HttpServer,
  Lifecycle,
  moduleLogger,
  startupStep,
  systemClock,
  TOPICS,
  topicSpecs,
  type Clock,
  type Logger,
} from '@ipdata/common';
import { datasetPublishedConsumer } from './adapters/kafka/dataset-published.consumer.js';
import type { LookupEngineConfig } from './config.js';
import { observeDatasetAge } from './dataset/dataset-age.metric.js';
import { DatasetStore } from './dataset/dataset-store.js';
import { lookupAccessPolicy } from './grpc/lookup.access-policy.js';
import { fastLookupServiceDefinition } from './grpc/lookup-service.definition.js';
import { lookupHandlers } from './grpc/lookup.handler.js';
import { statisticsHandlers } from './grpc/statistics.handler.js';
import { asnHandlers } from './grpc/asn.handler.js';
import { explainHandlers } from './grpc/explain.handler.js';
import { StatisticsHistory } from './statistics/statistics-files.js';

export interface LookupEngine {
  lifecycle: Lifecycle;
  store: DatasetStore;
  grpc: GrpcServer;
  health: HttpServer;
}

/** Wires the lookup engine; main.ts and the integration tests both start it through here. */
export function buildLookupEngine(config: LookupEngineConfig, logger: Logger, clock: Clock = systemClock): LookupEngine {
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const health = lifecycle.register(
    HttpServer.fromConfig(
      { host: config.HEALTH_HOST, port: config.HEALTH_PORT, name: 'health-server', metrics: true },
      lifecycle,
      moduleLogger(logger, 'health'),
    ),
  );
  const grpc = GrpcServer.fromConfig(
    { ...grpcServerConfigFrom(config), policy: lookupAccessPolicy },
    moduleLogger(logger, 'grpc'),
  );
  // gRPC health says SERVING only while a dataset is loaded.
  const store = lifecycle.register(
    new DatasetStore(config.DATASETS_DIR, moduleLogger(logger, 'dataset'), () => grpc.setServing(true)),
  );
  grpc.addService('ipdata.lookup.v1.LookupService', fastLookupServiceDefinition, {
    ...lookupHandlers(store, moduleLogger(logger, 'lookup'), clock, config.LOOKUP_STREAM_MAX_AGE_MS),
    ...asnHandlers(store, moduleLogger(logger, 'asn')),
    ...explainHandlers(store, moduleLogger(logger, 'explain'), clock),
    ...statisticsHandlers(
      store,
      new StatisticsHistory(config.DATASETS_DIR, moduleLogger(logger, 'statistics')),
      moduleLogger(logger, 'statistics'),
    ),
  });
  lifecycle.register(grpc);
  observeDatasetAge(store, clock);
  lifecycle.register(startupStep('grpc-serving-status', async () => grpc.setServing(store.version !== undefined)));

  if (config.DATASET_EVENTS_ENABLED) {
    const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
    const producer = EventProducer.fromConfig({ kafka, source: 'lookup-engine' }, logger);
    lifecycle.register(startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs([TOPICS.datasetPublished]), logger)));
    lifecycle.register(producer);
    lifecycle.register(
      datasetPublishedConsumer(
        { kafka, producer, store, instanceId: config.INSTANCE_ID, datasetsDir: config.DATASETS_DIR },
        moduleLogger(logger, 'dataset-events'),
      ),
    );
  }
  return { lifecycle, store, grpc, health };
}
