import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ApiKeyClientCache, apiKeyCacheConsumers, grpcApiKeyResolver } from '@ipdata/auth/client';
import {
  ClientAddressResolver,
  EventProducer,
  HttpServer,
  LimitedCounter,
  Lifecycle,
  MongoConnection,
  RedisConnection,
  TOPICS,
  createGrpcClient,
  createKafka,
  ensureTopics,
  grpcTlsFromConfig,
  moduleLogger,
  startupStep,
  systemClock,
  topicSpecs,
  VisitorIds,
  type Clock,
} from '@ipdata/common';
import { WebApp } from '@ipdata/common/web-app';
import { BatchLookupStream, createLookupClient } from '@ipdata/lookup-engine/client';
import { AuthServiceClient } from '@ipdata/proto/auth/v1/auth';
import { BillingServiceClient } from '@ipdata/proto/billing/v1/billing';
import { DownloadsServiceClient } from '@ipdata/proto/downloads/v1/downloads';
import { StatsServiceClient } from '@ipdata/proto/stats/v1/stats';
import { ContentServiceClient } from '@ipdata/proto/content/v1/content';
import { BulkJobs } from '@ipdata/bulk-jobs';
import { meteringFromConfig } from '@ipdata/metering';
import { GrpcLookupEngine, type LookupStreams } from './adapters/grpc/lookup-engine.adapter.js';
import { GrpcStatsUsageHistory } from './adapters/grpc/stats-usage.adapter.js';
import { GrpcDownloadPlans } from './adapters/grpc/billing-plans.adapter.js';
import { GrpcDatabaseDownloads } from './adapters/grpc/downloads.adapter.js';
import { GrpcUnreadCounts } from './adapters/grpc/content-unread.adapter.js';
import { GrpcContactForm } from './adapters/grpc/content-contact.adapter.js';
import { GrpcWebAccounts } from './adapters/grpc/web-accounts.adapter.js';
import { GrpcWebBilling } from './adapters/grpc/web-billing.adapter.js';
import type { BffEnConfig } from './config.js';
import { DatabaseAccess } from './databases/database-access.js';
import { DomainResolver } from './domain-lookup/domain-resolver.js';
import { LookupBatcher } from './lookups/lookup-batcher.js';
import { Accounting } from './public-api/accounting.js';
import { PublicApiDispatcher } from './public-api/public-api.dispatcher.js';
import type { PublicOperation } from './public-api/public-route.js';
import { BulkLookupProcessor } from './public-api/bulk/bulk-lookup.processor.js';
import { publicRoutes } from './public-api/public-routes.js';
import { loadOpenApiJson } from './public-api/routes/openapi.routes.js';
import { UsageHistory } from './usage-history/usage-history.js';
import { WebApiDispatcher } from './web-api/web-api.dispatcher.js';
import { loadWebOpenApiJson, webApiRoutes } from './web-api/web-api.routes.js';

export interface BffEn {
  lifecycle: Lifecycle;
  /** The public API's operations (the OpenAPI contract test compares them with the document). */
  publicOperations(): PublicOperation[];
  /** The web API's routes (its OpenAPI contract test compares them with openapi/web-api.yaml). */
  webOperations(): { method: string; path: string; name: string }[];
  /** Bound HTTP port (configure 0 in tests). */
  port(): number;
}

/**
 * The wiring: gRPC clients (lookup engine, auth) → the API-key cache and its invalidation
 * consumers → metering (quota and usage ledger: Redis, relayed to Kafka) → the public API
 * dispatcher in front of the HTTP server. Everything is registered with the lifecycle in start
 * order; main.ts calls this with the real config, tests with ports 0.
 */
export function buildBffEn(config: BffEnConfig, deps: { logger: Logger; clock?: Clock }): BffEn {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const tls = grpcTlsFromConfig(config);
  // Benchmarks only (refused in production): `off`, or one half alone to see what each costs.
  const quotaOn = config.PUBLIC_API_ACCOUNTING === 'on' || config.PUBLIC_API_ACCOUNTING === 'quota-only';
  const ledgerOn = config.PUBLIC_API_ACCOUNTING === 'on' || config.PUBLIC_API_ACCOUNTING === 'ledger-only';

  const lookupClient = createLookupClient({ address: config.LOOKUP_GRPC_ADDR, tls });
  const streams: LookupStreams | undefined = config.LOOKUP_ENGINE_STREAM
    ? {
        singles: lifecycle.register(BatchLookupStream.compact(lookupClient, 'lookup-stream-singles')),
        batches: lifecycle.register(BatchLookupStream.compact(lookupClient, 'lookup-stream-batches')),
      }
    : undefined;
  const engine = new GrpcLookupEngine(lookupClient, streams);
  const authClient = createGrpcClient(AuthServiceClient, { address: config.AUTH_GRPC_ADDR, tls, defaultDeadlineMs: 2_000 });
  const keys = new ApiKeyClientCache({ resolve: grpcApiKeyResolver(authClient) });

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  lifecycle.register(
    startupStep('kafka-topics', () =>
      ensureTopics(kafka, topicSpecs([TOPICS.usageLookup, TOPICS.authUser, TOPICS.billingSubscription]), logger),
    ),
  );
  // Kafka is advisory for readiness: while it is down the API keeps answering (usage events wait
  // in the Redis stream; cached keys expire after 10 s and are asked of auth again).
  const advisory = { readiness: 'advisory' } as const;
  const producer = lifecycle.register(
    EventProducer.fromConfig({ kafka, source: 'bff-en' }, moduleLogger(logger, 'producer')),
    advisory,
  );
  for (const consumer of apiKeyCacheConsumers({
    kafka,
    groupId: `bff-en-cache-${config.INSTANCE_ID}`,
    cache: keys,
    dlqProducer: producer,
    logger: moduleLogger(logger, 'key-cache'),
  })) {
    lifecycle.register(consumer, advisory);
  }

  const redis = lifecycle.register(
    RedisConnection.fromConfig({ url: config.REDIS_URL, commandTimeoutMs: 300 }, moduleLogger(logger, 'redis')),
  );
  const { metering, quota } = meteringFromConfig(
    {
      source: 'bff-en',
      instanceId: config.INSTANCE_ID,
      redis,
      redisUrl: config.REDIS_URL,
      kafka,
      clock,
      ...(quotaOn ? { quota: { leaseIntervalMs: config.QUOTA_LEASE_INTERVAL_MS } } : {}),
      ledger: ledgerOn,
      defaultBurstPerSecond: config.DEFAULT_BURST_PER_SECOND,
    },
    lifecycle,
    logger,
  );
  const accounting = new Accounting(metering);
  const lookups = new LookupBatcher(engine);
  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const bulk = lifecycle.register(
    BulkJobs.fromConfig(
      {
        mongo,
        directory: join(config.DATA_DIR, 'bulk'),
        processor: new BulkLookupProcessor({ engine, accounting, clock }),
        concurrency: config.BULK_CONCURRENT_JOBS,
        maxLines: config.BULK_MAX_LINES,
        maxInputBytes: config.BULK_MAX_BYTES,
      },
      moduleLogger(logger, 'bulk-jobs'),
      clock,
    ),
  );
  const domains = new DomainResolver({
    servers: config.DNS_SERVERS,
    timeoutMs: config.DNS_TIMEOUT_MS,
  });
  const statsUsage = new GrpcStatsUsageHistory(createGrpcClient(StatsServiceClient, { address: config.STATS_GRPC_ADDR, tls }));
  const billingClient = createGrpcClient(BillingServiceClient, { address: config.BILLING_GRPC_ADDR, tls });
  const databases = new DatabaseAccess(
    new GrpcDatabaseDownloads(createGrpcClient(DownloadsServiceClient, { address: config.DOWNLOADS_GRPC_ADDR, tls })),
    new GrpcDownloadPlans(billingClient),
  );
  const clientAddress = new ClientAddressResolver(config.TRUSTED_PROXIES);
  const dispatcher = new PublicApiDispatcher({
    routes: publicRoutes({
      accounting,
      lookups,
      engine,
      domains,
      bulk,
      bulkMaxBytes: config.BULK_MAX_BYTES,
      clientAddress,
      openApiJson: loadOpenApiJson(),
      usageHistory: new UsageHistory(statsUsage, moduleLogger(logger, 'usage-history')),
      databases,
    }),
    keys,
    accounting,
    clock,
    logger: moduleLogger(logger, 'public-api'),
  });
  const accounts = new GrpcWebAccounts(authClient);
  const contentClient = createGrpcClient(ContentServiceClient, { address: config.CONTENT_GRPC_ADDR, tls });
  const web = new WebApiDispatcher({
    routes: webApiRoutes({
      accounts,
      billing: new GrpcWebBilling(billingClient),
      unread: new GrpcUnreadCounts(contentClient),
      contact: new GrpcContactForm(contentClient),
      usageSeries: statsUsage,
      quota,
      databases,
      lookups,
      domains,
      accounting,
      visitorIds: new VisitorIds(config.VISITOR_ID_SECRET),
      limiter: new LimitedCounter(redis.client),
      config,
      logger: moduleLogger(logger, 'web-api'),
    }),
    sessions: accounts,
    clientAddress,
    allowedOrigins: [config.SITE_ORIGIN],
    openApiJson: loadWebOpenApiJson(),
    clock,
    logger: moduleLogger(logger, 'web-api'),
  });
  // Face B's built app, asked last: /v1 and /api never reach it (nor /healthz, /readyz, other methods).
  const webApp = config.WEB_APP_ENABLED
    ? lifecycle.register(WebApp.fromConfig(config, { apiPrefixes: ['/v1', '/api'] }, moduleLogger(logger, 'web-app')))
    : undefined;
  // The public API first: its hot path pays one prefix check more than before, nothing else.
  const firstHandler = (request: IncomingMessage, response: ServerResponse) =>
    dispatcher.handle(request, response) ?? web.handle(request, response) ?? webApp?.handle(request, response);
  const server = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'http', host: config.HEALTH_HOST, port: config.HEALTH_PORT, firstHandler },
      lifecycle,
      moduleLogger(logger, 'http'),
    ),
  );
  return {
    lifecycle,
    publicOperations: () => dispatcher.operations(),
    webOperations: () => web.operations(),
    port: () => server.boundPort,
  };
}
