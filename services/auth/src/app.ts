import {
  EventProducer,
  GrpcServer,
  HealthServer,
  Lifecycle,
  MongoConnection,
  RedisConnection,
  TOPICS,
  createKafka,
  ensureTopics,
  moduleLogger,
  topicSpecs,
  type Component,
  type EventConsumer,
} from '@ipdata/common';
import { AuthServiceService } from '@ipdata/proto/auth/v1/auth';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { Logger } from 'pino';
import { EmailAccountService } from './accounts/email-account.service.js';
import { PasswordHasher } from './accounts/password-hasher.js';
import { PhoneAccountService } from './accounts/phone-account.service.js';
import { ProfileService } from './accounts/profile.service.js';
import { SignedLinks } from './accounts/signed-link.js';
import { UserViews } from './accounts/user-views.js';
import { authHandlers, type AuthDomain } from './adapters/grpc/auth.handlers.js';
import { subscriptionConsumer } from './adapters/kafka/subscription.consumer.js';
import { OutboxUserEventPublisher } from './adapters/kafka/user-event.publisher.js';
import { SmtpMailer } from './adapters/mail/smtp.mailer.js';
import { MongoAccountRepository } from './adapters/mongo/account.repository.js';
import { MongoApiKeyRepository } from './adapters/mongo/api-key.repository.js';
import { MongoOutboxRepository } from './adapters/mongo/outbox.repository.js';
import { MongoSessionRepository } from './adapters/mongo/session.repository.js';
import { MongoSubscriptionRepository } from './adapters/mongo/subscription.repository.js';
import { RedisCooldown, RedisNonceStore, RedisRateLimiter } from './adapters/redis/limits.js';
import { RedisApiKeyCache, RedisSessionCache } from './adapters/redis/redis-caches.js';
import { RedisSmsCodeStore } from './adapters/redis/sms-code.store.js';
import { HttpSmsGateway } from './adapters/sms/http-sms.gateway.js';
import { LogSmsGateway } from './adapters/sms/log-sms.gateway.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import type { AuthConfig } from './config.js';
import { SubscriptionProjection } from './entitlements/subscription-projection.js';
import { SessionService } from './sessions/session.service.js';
import { SmsCodeService } from './sms/sms-code.service.js';
import type { SmsGateway } from './sms/sms-gateway.js';
import { systemClock, type Clock } from './shared/clock.js';

/** What tests (and only tests) replace; production wiring uses the defaults. */
export interface AuthOverrides {
  clock?: Clock;
  smsGateway?: SmsGateway;
  /** Redis key prefix (default "auth:"); tests give each file its own. */
  redisPrefix?: string;
  consumerGroupId?: string;
}

export interface AuthService {
  lifecycle: Lifecycle;
  events: OutboxUserEventPublisher;
  grpc: GrpcServer;
  health: HealthServer;
  domain: AuthDomain;
  subscriptions: EventConsumer<SubscriptionChanged>;
}

/** Runs a function every interval while running (session sweep); errors are logged, not fatal. */
function periodic(name: string, intervalMs: number, task: () => Promise<unknown>, logger: Logger): Component {
  let timer: NodeJS.Timeout | undefined;
  return {
    name,
    start: async () => {
      timer = setInterval(() => void task().catch((error: unknown) => logger.warn({ err: error }, `${name} failed`)), intervalMs);
      timer.unref();
    },
    shutdown: async () => clearInterval(timer),
  };
}

/** config → adapters → domain → handlers, registered with one lifecycle (main.ts and tests call this). */
export function buildAuthService(config: AuthConfig, logger: Logger, overrides: AuthOverrides = {}): AuthService {
  const clock = overrides.clock ?? systemClock;
  const prefix = overrides.redisPrefix ?? 'auth:';
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const redisConnection = lifecycle.register(
    RedisConnection.fromConfig({ url: config.REDIS_URL }, moduleLogger(logger, 'redis')),
  );
  const redis = redisConnection.client;
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);

  const accountsRepo = new MongoAccountRepository(mongo.connection);
  const sessionsRepo = new MongoSessionRepository(mongo.connection);
  const apiKeysRepo = new MongoApiKeyRepository(mongo.connection);
  const subscriptionsRepo = new MongoSubscriptionRepository(mongo.connection);
  const outboxRepo = new MongoOutboxRepository(mongo.connection);
  lifecycle.register({
    name: 'schema',
    start: async () => {
      // autoIndex is off: indexes and topics are created here so a failure stops the start.
      await Promise.all(
        [accountsRepo, sessionsRepo, apiKeysRepo, subscriptionsRepo, outboxRepo].map((repo) => repo.createIndexes()),
      );
      await ensureTopics(kafka, topicSpecs([TOPICS.authUser, TOPICS.billingSubscription]), moduleLogger(logger, 'kafka.admin'));
    },
    shutdown: async () => undefined,
  });
  const producer = lifecycle.register(
    EventProducer.fromConfig({ kafka, source: 'auth', sendTimeoutMs: 10_000 }, moduleLogger(logger, 'kafka.producer')),
  );

  const smsGateway =
    overrides.smsGateway ??
    (config.SMS_GATEWAY === 'log'
      ? new LogSmsGateway(moduleLogger(logger, 'sms'))
      : new HttpSmsGateway({
          url: config.SMS_GATEWAY_URL,
          secret: config.SMS_GATEWAY_SECRET,
          template: config.SMS_GATEWAY_TEMPLATE,
        }));
  const mailer = new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM });
  const events = new OutboxUserEventPublisher(outboxRepo, producer, clock, moduleLogger(logger, 'events'));
  const limiter = new RedisRateLimiter(redis, prefix);
  const hasher = new PasswordHasher({ N: config.SCRYPT_N, r: config.SCRYPT_R, p: config.SCRYPT_P, keylen: config.SCRYPT_KEYLEN });
  const views = new UserViews(subscriptionsRepo, clock);

  const sessions = new SessionService(sessionsRepo, new RedisSessionCache(redis, prefix), clock, {
    maxCacheTtlMs: config.SESSION_CACHE_MAX_TTL_SECONDS * 1000,
  });
  const smsCodes = new SmsCodeService(
    new RedisSmsCodeStore(redis, prefix),
    limiter,
    new RedisCooldown(redis, prefix),
    smsGateway,
    clock,
    {
      perIpPerHour: config.SMS_PER_IP_PER_HOUR,
    },
  );
  const apiKeys = new ApiKeyService(apiKeysRepo, new RedisApiKeyCache(redis, prefix), subscriptionsRepo, events, clock, {
    cacheTtlMs: config.API_KEY_CACHE_TTL_SECONDS * 1000,
  });
  const domain: AuthDomain = {
    smsCodes,
    sessions,
    apiKeys,
    phoneAccounts: new PhoneAccountService(accountsRepo, hasher, sessions, smsCodes, events, limiter, views, clock),
    emailAccounts: new EmailAccountService(
      accountsRepo,
      hasher,
      sessions,
      new SignedLinks(config.EMAIL_LINK_SECRET),
      new RedisNonceStore(redis, prefix),
      mailer,
      events,
      limiter,
      views,
      clock,
      { publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''), mailsPerAddressPerHour: config.MAIL_PER_ADDRESS_PER_HOUR },
    ),
    profiles: new ProfileService(accountsRepo, hasher, sessions, events, views, clock),
  };

  const projection = new SubscriptionProjection(subscriptionsRepo, (accountId) => apiKeys.invalidateAccount(accountId));
  const subscriptions = lifecycle.register(
    subscriptionConsumer({
      kafka,
      groupId: overrides.consumerGroupId ?? 'auth',
      projection,
      dlqProducer: producer,
      redis,
      logger: moduleLogger(logger, 'kafka.consumer'),
    }),
  );
  lifecycle.register(
    periodic('session-sweeper', config.SESSION_SWEEP_INTERVAL_SECONDS * 1000, () => sessions.sweepExpired(), logger),
  );
  lifecycle.register(periodic('outbox-relay', 5_000, () => events.relay(), logger));
  lifecycle.register({ name: 'mailer', start: async () => undefined, shutdown: async () => mailer.close() });

  const grpc = lifecycle.register(GrpcServer.fromConfig({ port: config.GRPC_PORT }, moduleLogger(logger, 'grpc')));
  grpc.addService('ipdata.auth.v1.AuthService', AuthServiceService, authHandlers(domain, moduleLogger(logger, 'grpc.auth')));
  const health = lifecycle.register(
    HealthServer.fromConfig({ port: config.HEALTH_PORT }, lifecycle, moduleLogger(logger, 'health')),
  );

  return { lifecycle, events, grpc, health, domain, subscriptions };
}
