import type { Logger } from 'pino';
import {
  EventProducer,
  GrpcServer,
  HttpServer,
  Lifecycle,
  MongoConnection,
  RedisConnection,
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
import { MongoAccountPlans } from './adapters/mongo/account-plans.store.js';
import { MongoCounterReader, MongoCounterStore } from './adapters/mongo/counter.store.js';
import { MongoGenerationStore } from './adapters/mongo/generation.store.js';
import { MongoRollupCollectionsAdmin } from './adapters/mongo/rollup-collections.admin.js';
import { ROLLUP_INDEXES, VISIT_INDEXES, ensureRollupIndexes } from './adapters/mongo/rollup-indexes.js';
import { RedisEventClaims } from './adapters/redis/event-claims.redis.js';
import { RedisUniqueVisitors } from './adapters/redis/unique-visitors.redis.js';
import { ledgerConsumer } from './adapters/kafka/ledger.consumer.js';
import { KafkaLedgerReplaySource, committedLedgerOffsets } from './adapters/kafka/ledger-replay.source.js';
import { plansConsumer } from './adapters/kafka/plans.consumer.js';
import { createVisitsConsumer } from './adapters/kafka/visits.consumer.js';
import { statsAccessPolicy } from './adapters/grpc/stats.access-policy.js';
import { addStatsService } from './adapters/grpc/stats.handler.js';
import { closingComponents } from './closing/closing.components.js';
import type { StatsConfig } from './config.js';
import { RollupGeneration, type RollupCollections } from './counters/rollup-generation.js';
import { LedgerBatchHandler } from './ledger/ledger-batch.handler.js';
import type { ClosingGate, LedgerTarget } from './ledger/ledger-ports.js';
import { usageFold } from './ledger/usage-fold.js';
import { RedisQuotaCounters } from '@ipdata/metering';
import { QuotaReconciler } from './reconcile/quota-reconciler.js';
import { quotaReconcileTask } from './reconcile/quota-reconcile.task.js';
import { RollupQuotaUsage } from './reconcile/rollup-quota-usage.js';
import { RollupReplays } from './replay/rollup-replay.js';
import { TrendQueries } from './trends/trend.queries.js';
import { trendFold } from './trends/trend-fold.js';
import { UsageQueries } from './usage/usage.queries.js';
import { VisitBatchHandler } from './visits/visit-batch.handler.js';
import { VisitQueries } from './visits/visit.queries.js';

export interface StatsService {
  lifecycle: Lifecycle;
  /** Bound ports (configure 0 to get free ones in tests). */
  ports(): { grpc: number; health: number };
}

/** visit_rollups is not replayed (the ledger is usage.lookup.v1), so it has no generations. */
const VISIT_COLLECTION = 'visit_rollups';

/** A replay counts every event as on time: carries are billing facts of the live rollups (copied at the swap). */
const REPLAY_GATE: ClosingGate = { enter: () => ({ openFrom: new Date(0), leave: () => undefined }) };

/**
 * The wiring: Mongo and Redis → the rollup generation (which collections are live) → Kafka
 * topics and producer → closing (gate, closer, outbox relay, running month totals) → the ledger,
 * visits and plans consumers → queries, reconciliation (on demand and every interval), replay →
 * gRPC and health. Registered with the lifecycle in start order; main.ts calls it with the real
 * config, tests with ports 0.
 */
export function buildStatsService(config: StatsConfig, deps: { logger: Logger; clock?: Clock }): StatsService {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const redis = lifecycle.register(RedisConnection.fromConfig({ url: config.REDIS_URL }, moduleLogger(logger, 'redis')));
  const { connection } = mongo;
  const generation = new RollupGeneration(new MongoGenerationStore(connection));
  const collectionsAdmin = new MongoRollupCollectionsAdmin(connection, ROLLUP_INDEXES);
  const plans = new MongoAccountPlans(connection);
  lifecycle.register(
    startupStep('rollup-collections', async () => {
      await generation.load();
      await ensureRollupIndexes(connection, generation.current());
      for (const spec of VISIT_INDEXES) await connection.collection(VISIT_COLLECTION).createIndex({ ...spec });
    }),
  );

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  const topics = [TOPICS.usageLookup, TOPICS.usageRollup, TOPICS.siteVisit, TOPICS.billingSubscription];
  lifecycle.register(startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs(topics), logger)));
  const producer = lifecycle.register(EventProducer.fromConfig({ kafka, source: 'stats' }, moduleLogger(logger, 'producer')));

  const storeOf = (name: () => string) => new MongoCounterStore(connection, name, moduleLogger(logger, 'counters'));
  const targetsOf = (collections: () => RollupCollections): LedgerTarget[] => [
    { store: storeOf(() => collections().usage), fold: usageFold },
    { store: storeOf(() => collections().trends), fold: trendFold },
  ];
  const claims = new RedisEventClaims(redis.client, {
    keyPrefix: `${config.REDIS_KEY_PREFIX}claim:`,
    ttlSeconds: config.DEDUP_TTL_SECONDS,
  });

  // The ledger consumer is created below, the closer needs to know whether it consumes: bound late.
  let ledgerReady = () => false;
  const closing = closingComponents(
    {
      connection,
      producer,
      usageCollection: generation.usageCollection,
      clock,
      config,
      isLedgerReady: () => ledgerReady(),
    },
    moduleLogger(logger, 'closing'),
  );
  lifecycle.register(closing.indexes);
  lifecycle.register(closing.closer);
  lifecycle.register(closing.relay);
  lifecycle.register(closing.livePublisher);

  // Registered before the ledger consumer so that it shuts down first: a running replay's reader
  // closes cleanly (the replay fails, the live generation stays) before the consumer and Kafka go.
  const replays = new RollupReplays({
    generation,
    source: new KafkaLedgerReplaySource(
      { kafka, topic: TOPICS.usageLookup, groupPrefix: config.KAFKA_GROUP_ID, chunkSize: config.LEDGER_BATCH_MAX },
      moduleLogger(logger, 'replay'),
    ),
    live: {
      pause: () => ledger.pause(),
      resume: () => ledger.resume(),
      committedOffsets: () => committedLedgerOffsets(kafka, config.KAFKA_GROUP_ID, TOPICS.usageLookup.name),
    },
    admin: collectionsAdmin,
    handlerFor: (collections) => {
      const handler = new LedgerBatchHandler({ claims, gate: REPLAY_GATE, targets: () => targetsOf(() => collections) });
      return async (batch) => (await handler.handle(batch)).counted;
    },
    openFrom: () => closing.gate.openFrom,
    clock,
    logger: moduleLogger(logger, 'replay'),
  });
  lifecycle.register({ name: 'rollup-replays', start: async () => undefined, shutdown: () => replays.stop() });

  const liveTargets = targetsOf(() => generation.current());
  const ledger = lifecycle.register(
    ledgerConsumer(
      {
        kafka,
        groupId: config.KAFKA_GROUP_ID,
        dlqProducer: producer,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        fromBeginning: config.LEDGER_NEW_GROUP_START === 'earliest',
        maxBatchEvents: config.LEDGER_BATCH_MAX,
        handler: new LedgerBatchHandler({
          claims,
          gate: closing.gate,
          targets: () => liveTargets,
          onCounted: closing.onCounted,
        }),
      },
      moduleLogger(logger, 'ledger'),
    ),
  );
  ledgerReady = () => ledger.isConsuming();

  const visitStore = storeOf(() => VISIT_COLLECTION);
  const visitors = new RedisUniqueVisitors(redis.client, { keyPrefix: config.REDIS_KEY_PREFIX });
  lifecycle.register(
    createVisitsConsumer(
      {
        kafka,
        kafkaGroupId: config.KAFKA_GROUP_ID,
        dlqProducer: producer,
        maxBatchEvents: config.LEDGER_BATCH_MAX,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        handler: new VisitBatchHandler({
          claims: new RedisEventClaims(redis.client, {
            keyPrefix: `${config.REDIS_KEY_PREFIX}visit-claim:`,
            ttlSeconds: config.DEDUP_TTL_SECONDS,
          }),
          store: visitStore,
          visitors,
        }),
      },
      moduleLogger(logger, 'visits'),
    ),
  );
  lifecycle.register(
    plansConsumer(
      {
        kafka,
        groupId: `${config.KAFKA_GROUP_ID}.plans`,
        dlqProducer: producer,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        plans,
      },
      moduleLogger(logger, 'plans'),
    ),
  );

  const readerOf = (name: () => string) => new MongoCounterReader(connection, name);
  const usageReader = readerOf(generation.usageCollection);
  const usageQueries = new UsageQueries({ reader: usageReader, plans, clock });
  const trendQueries = new TrendQueries(readerOf(generation.trendsCollection), clock);
  const visitQueries = new VisitQueries({ reader: readerOf(() => VISIT_COLLECTION), visitors });
  const reconciler = new QuotaReconciler(
    new RollupQuotaUsage(usageReader),
    new RedisQuotaCounters(redis.client, { keyPrefix: config.QUOTA_KEY_PREFIX }),
    clock,
  );
  const reconcileTask = quotaReconcileTask(
    config.QUOTA_RECONCILE_INTERVAL_SECONDS * 1000,
    reconciler,
    moduleLogger(logger, 'quota-reconcile'),
  );
  if (reconcileTask !== undefined) lifecycle.register(reconcileTask);

  const grpc = lifecycle.register(
    GrpcServer.fromConfig({ ...grpcServerConfigFrom(config), policy: statsAccessPolicy }, moduleLogger(logger, 'grpc')),
  );
  addStatsService(
    grpc,
    { usage: usageQueries, trends: trendQueries, visits: visitQueries, reconciler, replays },
    moduleLogger(logger, 'grpc'),
  );
  const health = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'health-server', host: config.HEALTH_HOST, port: config.HEALTH_PORT, metrics: true },
      lifecycle,
      moduleLogger(logger, 'health'),
    ),
  );
  return { lifecycle, ports: () => ({ grpc: grpc.boundPort, health: health.boundPort }) };
}
