import type { Logger } from 'pino';
import {
  ClientAddressResolver,
  EventProducer,
  HttpServer,
  Lifecycle,
  RedisConnection,
  TOPICS,
  createGrpcClient,
  createKafka,
  ensureTopics,
  grpcTlsFromConfig,
  moduleLogger,
  startupStep,
  topicSpecs,
} from '@ipdata/common';
import { createLookupClient } from '@ipdata/lookup-engine/client';
import { AuthServiceClient } from '@ipdata/proto/auth/v1/auth';
import { ContentServiceClient } from '@ipdata/proto/content/v1/content';
import { StatsServiceClient as StatsTrendsClient, StatsServiceClient as StatsVisitsClient } from '@ipdata/proto/stats/v1/stats';
import { GrpcFaceAAccounts } from './adapters/grpc/auth.adapter.js';
import { GrpcSiteContent } from './adapters/grpc/content.adapter.js';
import { GrpcIpLookupEngine } from './adapters/grpc/lookup-engine.adapter.js';
import { GrpcDatasetStatistics } from './adapters/grpc/statistics.adapter.js';
import { GrpcLookupTrends } from './adapters/grpc/stats-trends.adapter.js';
import { GrpcVisitCounts } from './adapters/grpc/stats.adapter.js';
import { KafkaUsageSink } from './adapters/kafka/usage.kafka-sink.js';
import { wireTraceroute } from './adapters/kafka/probe.wiring.js';
import { KafkaVisitSink } from './adapters/kafka/visit.kafka-sink.js';
import { RedisVisitorRateLimiter } from './adapters/redis/visitor-limit.redis.js';
import { faceACalls } from './calls/face-a-calls.js';
import { OPENAPI_PATH, loadFaceAOpenApiJson } from './calls/openapi.document.js';
import type { CardTools } from './card-tools/index.js';
import type { BffCnConfig } from './config.js';
import { FaceADispatcher } from './face-a/face-a.dispatcher.js';
import type { FaceACall } from './face-a/face-a-call.js';
import { VisitorIds } from './face-a/visitor-id.js';
import { FaceALookups } from './lookups/face-a-lookups.js';
import { UsageEmitter } from './usage/usage-emitter.js';

export interface BffCn {
  lifecycle: Lifecycle;
  calls: readonly FaceACall[];
  usage: UsageEmitter;
  /** Bound HTTP port (configure 0 in tests). */
  port(): number;
}

export interface BffCnDeps {
  logger: Logger;
  /** Loaded once before (loadCardTools() in main.ts): several MB of tables. */
  cardTools: CardTools;
  /** Prefix of bff-cn's Redis keys ("bff-cn:"); tests give each run its own. */
  redisPrefix?: string;
}

/**
 * The wiring: gRPC clients (lookup engine, auth) → Redis (visitor rate limit) → Kafka (usage
 * events) → the face A dispatcher in front of common's HttpServer. Registered with the lifecycle
 * in start order; main.ts calls this with the real config, tests with port 0.
 */
export function buildBffCn(config: BffCnConfig, deps: BffCnDeps): BffCn {
  const { logger } = deps;
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const tls = grpcTlsFromConfig(config);

  const lookupClient = createLookupClient({ address: config.LOOKUP_GRPC_ADDR, tls });
  const engine = new GrpcIpLookupEngine(lookupClient, config.GRPC_DEADLINE_MS);
  // Statistics calls: the engine's statistics RPCs on the same channel, stats' trends on their own client.
  const statistics = {
    statistics: new GrpcDatasetStatistics(lookupClient, config.GRPC_DEADLINE_MS),
    trends: new GrpcLookupTrends(
      createGrpcClient(StatsTrendsClient, { address: config.STATS_GRPC_ADDR, tls, defaultDeadlineMs: config.GRPC_DEADLINE_MS }),
      config.GRPC_DEADLINE_MS,
    ),
  };
  // Content and visit calls: the content service, and stats' page views on their own client.
  const content = new GrpcSiteContent(
    createGrpcClient(ContentServiceClient, {
      address: config.CONTENT_GRPC_ADDR,
      tls,
      defaultDeadlineMs: config.GRPC_DEADLINE_MS,
    }),
    config.GRPC_DEADLINE_MS,
  );
  const visitCounts = new GrpcVisitCounts(
    createGrpcClient(StatsVisitsClient, { address: config.STATS_GRPC_ADDR, tls, defaultDeadlineMs: config.GRPC_DEADLINE_MS }),
    config.GRPC_DEADLINE_MS,
  );
  const accounts = new GrpcFaceAAccounts(
    createGrpcClient(AuthServiceClient, { address: config.AUTH_GRPC_ADDR, tls, defaultDeadlineMs: config.GRPC_DEADLINE_MS }),
    config.GRPC_DEADLINE_MS,
  );

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  lifecycle.register(
    startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs([TOPICS.usageLookup, TOPICS.siteVisit]), logger)),
  );
  // Advisory: while Kafka is down lookups keep answering (their usage events are dropped and counted).
  const advisory = { readiness: 'advisory' } as const;
  const producer = lifecycle.register(
    EventProducer.fromConfig({ kafka, source: 'bff-cn' }, moduleLogger(logger, 'producer')),
    advisory,
  );
  const usage = new UsageEmitter(new KafkaUsageSink(producer), moduleLogger(logger, 'usage'));
  // Components stop in reverse order: the HTTP server first, then this drain, then the producer,
  // so the usage events of the last requests still go out.
  lifecycle.register({ name: 'usage-drain', start: () => Promise.resolve(), shutdown: () => usage.drained() });
  // Also advisory: the visitor limit fails open when Redis is down (face-a-lookups.ts).
  const redis = lifecycle.register(
    RedisConnection.fromConfig({ url: config.REDIS_URL, commandTimeoutMs: 300 }, moduleLogger(logger, 'redis')),
    advisory,
  );
  const lookups = new FaceALookups({
    engine,
    limiter: new RedisVisitorRateLimiter(redis.client, {
      limit: config.LOOKUP_RATE_LIMIT,
      windowSeconds: config.LOOKUP_RATE_WINDOW_SECONDS,
      prefix: deps.redisPrefix ?? 'bff-cn:',
    }),
    usage,
    logger: moduleLogger(logger, 'lookups'),
  });

  const traceroute = wireTraceroute({
    config,
    lifecycle,
    kafka,
    producer,
    redis: redis.client,
    engine,
    redisPrefix: deps.redisPrefix ?? 'bff-cn:',
    logger,
  });
  const calls = faceACalls({
    lookups,
    accounts,
    cards: deps.cardTools,
    statistics,
    content,
    visitCounts,
    visits: new KafkaVisitSink(producer),
    sessions: accounts,
    siteName: config.SITE_NAME,
    logger: moduleLogger(logger, 'content'),
    traceroute,
  });
  const dispatcher = new FaceADispatcher({
    calls,
    documents: new Map([[OPENAPI_PATH, loadFaceAOpenApiJson()]]),
    sessions: accounts,
    clientAddress: new ClientAddressResolver(config.TRUSTED_PROXIES),
    visitorIds: new VisitorIds(config.VISITOR_ID_SECRET),
    limits: { maxFieldBytes: config.FORM_MAX_FIELD_BYTES, maxFileBytes: config.UPLOAD_MAX_BYTES, maxFields: 50 },
    logger: moduleLogger(logger, 'face-a'),
  });
  const server = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'http', host: config.HEALTH_HOST, port: config.HEALTH_PORT, firstHandler: dispatcher.handle },
      lifecycle,
      moduleLogger(logger, 'http'),
    ),
  );
  return { lifecycle, calls, usage, port: () => server.boundPort };
}
