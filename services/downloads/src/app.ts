import type { Logger } from 'pino';
import {
  ClientAddressResolver,
  EventProducer,
  GrpcServer,
  HttpServer,
  Lifecycle,
  MongoConnection,
  OutboxRelay,
  PeriodicTask,
  TOPICS,
  createKafka,
  ensureTopics,
  grpcServerConfigFrom,
  moduleLogger,
  startupStep,
  systemClock,
  topicSpecs,
  type Clock,
} from '@ipdata/common';
import { DatasetFolders } from './adapters/files/dataset-folders.js';
import { downloadsAccessPolicy } from './adapters/grpc/downloads.access-policy.js';
import { addDownloadsService } from './adapters/grpc/downloads.handler.js';
import { FileSender } from './adapters/http/file-sender.js';
import { fileRoutes } from './adapters/http/file.routes.js';
import { datasetPublishedConsumer } from './adapters/kafka/dataset-published.consumer.js';
import { subscriptionsConsumer } from './adapters/kafka/subscriptions.consumer.js';
import { MongoDailyCounter } from './adapters/mongo/daily-counter.store.js';
import { MongoEntitlementStore } from './adapters/mongo/entitlements.store.js';
import { MongoLinkStore } from './adapters/mongo/links.store.js';
import { MongoVersionStore } from './adapters/mongo/versions.store.js';
import { Catalogue } from './catalogue/catalogue.js';
import { CatalogueQueries } from './catalogue/catalogue.queries.js';
import type { DownloadsConfig } from './config.js';
import { Entitlements } from './entitlements/entitlement.js';
import { FileAccess } from './files/file-access.js';
import { OpenStreams } from './files/open-streams.js';
import { DownloadHistory } from './history/download-history.js';
import { DownloadLinks } from './links/download-links.js';
import { VersionPruner } from './pruning/version-pruner.js';

export interface DownloadsService {
  lifecycle: Lifecycle;
  catalogue: Catalogue;
  pruner: VersionPruner;
  streams: OpenStreams;
  /** Runs the outbox relay once now (tests). */
  relayNow(): Promise<void>;
  /** Bound ports (configure 0 to get free ones in tests); `http` serves files, /healthz and /readyz. */
  ports(): { grpc: number; http: number };
}

/**
 * The wiring: Mongo stores → dataset folders → Kafka topics and producer → outbox relay → the
 * catalogue (bootstrapped from `<DATASETS_DIR>/current`) and its consumers → links, history,
 * file server → pruning → gRPC. Registered with the lifecycle in start order; main.ts calls it
 * with the real config, tests with ports 0, their own database, groups and DATASETS_DIR.
 */
export function buildDownloadsService(config: DownloadsConfig, deps: { logger: Logger; clock?: Clock }): DownloadsService {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const { connection } = mongo;
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  const topics = [TOPICS.downloadsRecorded, TOPICS.datasetPublished, TOPICS.billingSubscription];
  lifecycle.register(startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs(topics), logger)));
  const producer = lifecycle.register(EventProducer.fromConfig({ kafka, source: 'downloads' }, moduleLogger(logger, 'producer')));

  // DownloadRecorded leaves through the link document's outbox: sent right after the download
  // was recorded, re-sent by the relay if that send failed.
  const relay = lifecycle.register(
    OutboxRelay.fromConfig(
      {
        name: 'downloads-outbox',
        collection: connection.collection(MongoLinkStore.COLLECTION),
        producer,
        topics: [TOPICS.downloadsRecorded],
        intervalMs: config.OUTBOX_INTERVAL_MS,
        clock,
      },
      moduleLogger(logger, 'outbox'),
    ),
  );
  const links = new MongoLinkStore(connection, (linkId) => void relay.publishPending(linkId));
  const versions = new MongoVersionStore(connection);
  const folders = new DatasetFolders(config.DATASETS_DIR);
  const catalogue = new Catalogue(
    { store: versions, source: folders, now: () => clock.now() },
    moduleLogger(logger, 'catalogue'),
  );
  lifecycle.register(startupStep('mongo-indexes', () => links.createIndexes()));
  lifecycle.register(startupStep('catalogue-bootstrap', () => catalogue.bootstrap()));

  const entitlements = new Entitlements(new MongoEntitlementStore(connection), {
    planId: config.FREE_DOWNLOAD_PLAN_ID,
    datasets: config.FREE_DOWNLOAD_DATASETS,
  });
  const downloadLinks = new DownloadLinks({
    catalogue,
    entitlements,
    links,
    counter: new MongoDailyCounter(connection),
    clock,
    settings: {
      secret: config.DOWNLOAD_LINK_SECRET,
      publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
      ttlSeconds: config.LINK_TTL_SECONDS,
      dailyLimit: config.DAILY_DOWNLOAD_LIMIT,
    },
  });
  const history = new DownloadHistory({ links, downloadLinks, dailyLimit: config.DAILY_DOWNLOAD_LIMIT });
  const queries = new CatalogueQueries({
    catalogue,
    entitlements,
    publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
  });

  const streams = new OpenStreams();
  const pruneLogger = moduleLogger(logger, 'pruning');
  const pruner = new VersionPruner({ store: versions, folders, links, streams, clock, keep: config.KEEP_VERSIONS }, pruneLogger);
  const pruning = lifecycle.register(
    PeriodicTask.fromConfig(
      { name: 'version-pruning', intervalMs: config.PRUNE_INTERVAL_MS, run: () => pruner.runOnce() },
      pruneLogger,
    ),
  );

  const consumerDeps = { kafka, dlqProducer: producer, sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS };
  // One group per topic: kafkajs requires every member of a group to subscribe to the same topics.
  lifecycle.register(
    datasetPublishedConsumer(
      {
        ...consumerDeps,
        groupId: `${config.KAFKA_GROUP_ID}.datasets`,
        catalogue,
        datasetsDir: config.DATASETS_DIR,
        onPublished: () => void pruning.runNow(),
      },
      moduleLogger(logger, 'datasets'),
    ),
  );
  lifecycle.register(
    subscriptionsConsumer(
      { ...consumerDeps, groupId: `${config.KAFKA_GROUP_ID}.subscriptions`, entitlements },
      moduleLogger(logger, 'subscriptions'),
    ),
  );

  const grpc = lifecycle.register(
    GrpcServer.fromConfig({ ...grpcServerConfigFrom(config), policy: downloadsAccessPolicy }, moduleLogger(logger, 'grpc')),
  );
  addDownloadsService(grpc, { catalogue: queries, links: downloadLinks, history }, moduleLogger(logger, 'grpc'));

  const filesLogger = moduleLogger(logger, 'files');
  const http = lifecycle.register(
    HttpServer.fromConfig(
      {
        name: 'file-server',
        metrics: true,
        host: config.HEALTH_HOST,
        port: config.HEALTH_PORT,
        routes: fileRoutes(
          {
            access: new FileAccess({ catalogue, links, secret: config.DOWNLOAD_LINK_SECRET, clock }),
            sender: new FileSender({ datasetsDir: folders.root, streams }, filesLogger),
            links,
            clientAddress: new ClientAddressResolver(config.TRUSTED_PROXIES),
            clock,
          },
          filesLogger,
        ),
      },
      lifecycle,
      filesLogger,
    ),
  );

  return {
    lifecycle,
    catalogue,
    pruner,
    streams,
    relayNow: () => relay.runNow(),
    ports: () => ({ grpc: grpc.boundPort, http: http.boundPort }),
  };
}
