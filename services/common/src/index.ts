export { env, type EnvVar } from './config/env-vars.js';
export {
  ConfigError,
  ConfigFileError,
  loadConfig,
  loadConfigOrExit,
  redactConfig,
  type ConfigOf,
  type EnvSchema,
} from './config/load-config.js';
export { kafkaEnv, mongoEnv, redisEnv, serviceEnv } from './config/common-env.js';
export {
  MIN_SECRET_LENGTH,
  isProductionEnv,
  weakSecretProblems,
  withDevelopmentValues,
  type WeakSecretRules,
} from './config/development-secrets.js';
export { systemClock, type Clock } from './time/clock.js';

export { createLogger, moduleLogger, REDACTED_PATHS, type Logger, type LoggerConfig } from './logger/logger.js';
export { shutdownTelemetry, startTelemetry, tracer, type Telemetry, type TelemetryConfig } from './telemetry/telemetry.js';
export {
  durationHistogram,
  metricsMeter,
  prometheusText,
  PROMETHEUS_CONTENT_TYPE,
  setMetricsServiceName,
} from './metrics/metrics-registry.js';
export { httpRouteMetrics, setHttpRoute, HttpRouteMetrics, UNMATCHED_ROUTE } from './metrics/http-metrics.js';
export { METRIC_CATALOGUE, type CataloguedMetric } from './metrics/metric-catalogue.js';

export {
  ConflictError,
  DeadlineExceededError,
  DomainError,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
  isDomainError,
  isTransientError,
  type DomainErrorKind,
  type DomainErrorOptions,
} from './errors/domain-errors.js';
export { fromGrpcError, toGrpcStatus } from './errors/grpc-status.js';
export { httpFailureOf, toHttpError, type HttpErrorBody, type HttpFailure } from './errors/http-status.js';
export { errorText } from './errors/error-text.js';

export { Lifecycle, runService, type Component, type LifecycleOptions, type ReadinessReport } from './lifecycle/lifecycle.js';
export { backoffDelay, retry, type RetryOptions } from './lifecycle/retry.js';
export { BatchQueueFullError, TurnBatcher, type TurnBatcherOptions } from './batching/turn-batcher.js';
export { PeriodicTask, startupStep, type PeriodicTaskConfig } from './lifecycle/periodic-task.js';
export { setHeapGrowingPercent } from './lifecycle/heap-growing.js';
export { createHealthHandler } from './health/health-server.js';
export { HttpServer, type HttpRoute, type HttpServerConfig, type RouteParams } from './http/http-server.js';
export { ClientAddressResolver } from './http/client-address.js';
export { VisitorIds } from './http/visitor-id.js';
export {
  BodyTooLargeError,
  DEFAULT_BODY_LIMIT_BYTES,
  escapeHtml,
  readBody,
  readJson,
  sendHtml,
  sendJson,
} from './http/http-body.js';

export { createKafka, type KafkaConfig } from './kafka/kafka-client.js';
export {
  CE_SPEC_VERSION,
  PROTOBUF_CONTENT_TYPE,
  cloudEventHeaders,
  headersToStrings,
  readCloudEventAttributes,
  type CloudEventAttributes,
} from './kafka/cloudevents.js';
export {
  DLQ_SUFFIX,
  defineTopic,
  dlqTopicName,
  type EventCodec,
  type EventWithMeta,
  type TopicDefinition,
} from './kafka/topic-definition.js';
export { TOPIC_CATALOGUE, TOPICS } from './kafka/topic-catalogue.js';
export { ensureTopics, topicSpecs, type TopicSpec } from './kafka/topic-admin.js';
export { topicEndOffsets, type PartitionEnds } from './kafka/topic-offsets.js';
export { EventProducer, type EventProducerConfig, type SendOptions } from './kafka/event-producer.js';
export {
  KafkaAdapterCheck,
  TESTED_KAFKAJS_VERSION,
  kafkaAdapterProblems,
  type KafkaAdapterProbe,
} from './kafka/kafka-adapter-check.js';
export { Murmur2Partitioner, keyPartition, murmur2 } from './kafka/murmur2-partitioner.js';
export {
  EventConsumer,
  PoisonRecordError,
  type BatchHandler,
  type BatchOutcome,
  type ConsumedBatch,
  type ConsumedEvent,
  type EventConsumerConfig,
  type EventHandler,
} from './kafka/event-consumer.js';
export { RedisEventDeduplicator, type EventDeduplicator } from './kafka/event-deduplicator.js';
export {
  billingSubscriptionConsumer,
  type SubscriptionChangeRecord,
  type SubscriptionConsumerConfig,
} from './kafka/subscription-consumer.js';
export { outboxEvent, type OutboxEvent } from './outbox/outbox-event.js';
export { PENDING_EVENTS_INDEX, outboxUpdate, pendingEventsField } from './outbox/outbox-mongo.js';
export { OutboxRelay, type OutboxRelayConfig, type RelayResult } from './outbox/outbox-relay.js';

export { GrpcServer, logHandlerError, unary, type GrpcServerConfig, type UnaryHandler } from './grpc/grpc-server.js';
export { callUnary, createGrpcClient, deadlineInterceptor, type GrpcClientConfig } from './grpc/grpc-client.js';
export {
  DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
  assertGrpcTransportAllowed,
  grpcServerConfigFrom,
  grpcServerEnv,
  grpcTlsEnv,
  grpcTlsFromConfig,
  grpcTransportProblems,
  type GrpcTls,
  type GrpcTlsFiles,
} from './grpc/grpc-env.js';
export {
  GRPC_IDENTITIES,
  accessDecision,
  defineAccessPolicy,
  mergeAccessPolicies,
  type GrpcAccessPolicy,
  type GrpcIdentity,
} from './grpc/grpc-access.js';
export { callerIdentity } from './grpc/grpc-tls.js';

export { MongoConnection, redactUrl, type MongoConfig } from './mongo/mongo-connection.js';
export { duplicateKeyFields, isDuplicateKeyError, translateDuplicateKey } from './mongo/duplicate-key.js';
export { RedisConnection, type RedisConfig } from './redis/redis-connection.js';
export { LimitedCounter, type LimitedIncrementResult } from './redis/limited-counter.js';
export { defineRedisScript, type RedisScriptArg, type RedisScriptDefinition } from './redis/redis-script.js';
