import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import {
  ClientAddressResolver,
  EventProducer,
  HttpServer,
  VisitorIds,
  Lifecycle,
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
} from '@ipdata/common';
import { WebApp } from '@ipdata/common/web-app';
import { meteringFromConfig } from '@ipdata/metering';
import { createLookupClient } from '@ipdata/lookup-engine/client';
import { AuthServiceClient } from '@ipdata/proto/auth/v1/auth';
import { BillingServiceClient } from '@ipdata/proto/billing/v1/billing';
import { ContentServiceClient } from '@ipdata/proto/content/v1/content';
import { StatsServiceClient as StatsTrendsClient, StatsServiceClient as StatsVisitsClient } from '@ipdata/proto/stats/v1/stats';
import { GrpcFaceAAccounts } from './adapters/grpc/auth.adapter.js';
import { wireBatch } from './adapters/batch.wiring.js';
import { GrpcVipBilling } from './adapters/grpc/billing.adapter.js';
import { GrpcSiteContent } from './adapters/grpc/content.adapter.js';
import { GrpcIpLookupEngine } from './adapters/grpc/lookup-engine.adapter.js';
import { GrpcAsnDirectory } from './adapters/grpc/asn.adapter.js';
import { FaceAAsns } from './asn/face-a-asns.js';
import { GrpcDatasetStatistics } from './adapters/grpc/statistics.adapter.js';
import { GrpcAddressExplainer } from './adapters/grpc/explain.adapter.js';
import { CommonReverseDns } from './adapters/dns/reverse-dns.adapter.js';
import { GrpcLookupTrends } from './adapters/grpc/stats-trends.adapter.js';
import { GrpcVisitCounts } from './adapters/grpc/stats.adapter.js';
import { wireTraceroute } from './adapters/kafka/probe.wiring.js';
import { KafkaVisitSink } from './adapters/kafka/visit.kafka-sink.js';
import { RedisVisitorRateLimiter } from './adapters/redis/visitor-limit.redis.js';
import { faceACalls } from './calls/face-a-calls.js';
import { OPENAPI_PATH, loadFaceAOpenApiJson } from './calls/openapi.document.js';
import type { CardTools } from './card-tools/index.js';
import type { BffCnConfig } from './config.js';
import { FaceADispatcher } from './face-a/face-a.dispatcher.js';
import type { FaceACall } from './face-a/face-a-call.js';
import { FaceALookups } from './lookups/face-a-lookups.js';
import { IpReports } from './report/ip-reports.js';
import { loadReportExamples } from './report/report-examples.js';
import { UsageEmitter } from './usage/usage-emitter.js';
import { DnsResolver } from '@ipdata/common/dns';
import { DomainService } from './domains/domain.service.js';
import { WhoisService } from './whois/whois.service.js';
import { parseWhoisServer, type WhoisServer } from './whois/whois-parse.js';

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
  // Advisory: while Kafka is down lookups keep answering (their usage events wait in Redis, services/metering).
  const advisory = { readiness: 'advisory' } as const;
  const producer = lifecycle.register(
    EventProducer.fromConfig({ kafka, source: 'bff-cn' }, moduleLogger(logger, 'producer')),
    advisory,
  );
  // Also advisory: the visitor limit fails open when Redis is down (face-a-lookups.ts).
  const redis = lifecycle.register(
    RedisConnection.fromConfig({ url: config.REDIS_URL, commandTimeoutMs: 300 }, moduleLogger(logger, 'redis')),
    advisory,
  );
  const { metering } = meteringFromConfig(
    {
      source: 'bff-cn',
      instanceId: config.INSTANCE_ID,
      redis,
      redisUrl: config.REDIS_URL,
      kafka,
      clock: systemClock,
      ledger: true,
      defaultBurstPerSecond: 0,
    },
    lifecycle,
    logger,
  );
  const usage = new UsageEmitter(metering);
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
  const vipBilling = new GrpcVipBilling(
    createGrpcClient(BillingServiceClient, {
      address: config.BILLING_GRPC_ADDR,
      tls,
      defaultDeadlineMs: config.GRPC_DEADLINE_MS,
    }),
    config.GRPC_DEADLINE_MS,
  );
  // Batch lookups (H12): MongoDB and the shared bulk engine, before the HTTP server (stopped after it).
  const batch = wireBatch({
    config,
    lifecycle,
    lookupClient,
    usage,
    redis: redis.client,
    sessions: accounts,
    billing: vipBilling,
    redisPrefix: deps.redisPrefix ?? 'bff-cn:',
    logger,
  });
  // Domains and WHOIS (H13): one DNS resolver (common's) for the domain calls; stopped after the HTTP server.
  const dnsResolver = new DnsResolver({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS });
  lifecycle.register({
    name: 'domain-dns',
    start: () => Promise.resolve(),
    shutdown: () => Promise.resolve(dnsResolver.shutdown()),
  });
  const domains = {
    domains: new DomainService({
      dns: dnsResolver,
      lookups,
      toolLimiter: new RedisVisitorRateLimiter(redis.client, {
        limit: config.DOMAIN_TOOLS_RATE_LIMIT,
        windowSeconds: config.DOMAIN_TOOLS_RATE_WINDOW_SECONDS,
        prefix: deps.redisPrefix ?? 'bff-cn:',
        scope: 'domain_tools',
      }),
      logger: moduleLogger(logger, 'domains'),
    }),
    whois: new WhoisService({
      server: parseWhoisServer(config.WHOIS_SERVER, { allowIpLiterals: true, allowAnyPort: true }) as WhoisServer,
      hopTimeoutMs: config.WHOIS_TIMEOUT_MS,
      overallTimeoutMs: config.WHOIS_OVERALL_TIMEOUT_MS,
      maxBytes: 256 * 1024,
      maxHops: 3,
      allowIpLiterals: config.WHOIS_REFERRAL_ALLOW_IP,
      allowAnyPort: config.WHOIS_REFERRAL_OTHER_PORTS,
    }),
  };
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
    vip: {
      billing: vipBilling,
      vipReturnUrl: new URL('/vip', config.SITE_ORIGIN).toString(),
      clock: systemClock,
    },
    report: {
      reports: new IpReports({
        lookups,
        explainer: new GrpcAddressExplainer(lookupClient, config.REPORT_EXPLAIN_DEADLINE_MS),
        // The shared resolver of the domain calls (services/common's DnsResolver, DNS_SERVERS).
        reverseDns: new CommonReverseDns(dnsResolver),
        clock: systemClock,
        logger: moduleLogger(logger, 'report'),
      }),
      examples: loadReportExamples(),
    },
    batch,
    domains,
    // ASN calls (H14): the engine's ASN RPCs on the lookup channel, the visitor limit and usage of the lookups.
    asns: new FaceAAsns({ directory: new GrpcAsnDirectory(lookupClient, config.GRPC_DEADLINE_MS), lookups, usage }),
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
  // The built app (common's web-app): loaded before the server starts; asked after the calls'
  // dispatcher, and leaves /v1, /v2, /healthz, /readyz and other methods to the server.
  const web = config.WEB_APP_ENABLED
    ? lifecycle.register(WebApp.fromConfig(config, { apiPrefixes: ['/v1', '/v2'] }, moduleLogger(logger, 'web')))
    : undefined;
  const firstHandler =
    web === undefined
      ? dispatcher.handle
      : (request: IncomingMessage, response: ServerResponse) =>
          dispatcher.handle(request, response) ?? web.handle(request, response);
  const server = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'http', host: config.HEALTH_HOST, port: config.HEALTH_PORT, firstHandler },
      lifecycle,
      moduleLogger(logger, 'http'),
    ),
  );
  return { lifecycle, calls, usage, port: () => server.boundPort };
}
