import {
  EventProducer,
  GrpcServer,
  grpcServerConfigFrom,
  HttpServer,
  Lifecycle,
  MongoConnection,
  OutboxRelay,
  PeriodicTask,
  RedisConnection,
  TOPICS,
  createKafka,
  ensureTopics,
  moduleLogger,
  startupStep,
  systemClock,
  topicSpecs,
  type Clock,
  type EventConsumer,
} from '@ipdata/common';
import { AuthServiceService } from '@ipdata/proto/auth/v1/auth';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { FeedbackReceived } from '@ipdata/proto/events/v1/content';
import type { Logger } from 'pino';
import { PENDING_SIGNUP_TTL_MS } from './accounts/account.js';
import { EmailAccountService } from './accounts/email-account.service.js';
import { IpLimits } from './accounts/ip-limits.js';
import { PasswordHasher } from './accounts/password-hasher.js';
import { PhoneAccountService } from './accounts/phone-account.service.js';
import { ProfileService } from './accounts/profile.service.js';
import { SignedLinks } from './accounts/signed-link.js';
import { UserViews } from './accounts/user-views.js';
import { authAccessPolicy } from './adapters/grpc/auth.access-policy.js';
import { authHandlers, type AuthDomain } from './adapters/grpc/auth.handlers.js';
import { contactConsumer } from './adapters/kafka/contact.consumer.js';
import { subscriptionConsumer } from './adapters/kafka/subscription.consumer.js';
import { SmtpMailer } from './adapters/mail/smtp.mailer.js';
import { MongoAccountRepository } from './adapters/mongo/account.repository.js';
import { MongoApiKeyRepository } from './adapters/mongo/api-key.repository.js';
import { MongoMailOutbox } from './adapters/mongo/mail-outbox.repository.js';
import { MongoSessionRepository } from './adapters/mongo/session.repository.js';
import { MongoSubscriptionRepository } from './adapters/mongo/subscription.repository.js';
import { RedisCooldown, RedisNonceStore, RedisRateLimiter } from './adapters/redis/limits.js';
import { RedisApiKeyCache, RedisSessionCache } from './adapters/redis/redis-caches.js';
import { RedisSmsCodeStore } from './adapters/redis/sms-code.store.js';
import { HttpSmsGateway } from './adapters/sms/http-sms.gateway.js';
import { LogSmsGateway } from './adapters/sms/log-sms.gateway.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import type { AuthConfig } from './config.js';
import { ACKNOWLEDGEMENT_RECEIPT_MS, ContactAcknowledgements } from './contact/contact-acknowledgements.js';
import { SubscriptionProjection } from './entitlements/subscription-projection.js';
import { SessionService } from './sessions/session.service.js';
import { SmsCodeService } from './sms/sms-code.service.js';
import type { SmsGateway } from './sms/sms-gateway.js';

/** What tests (and only tests) replace; production wiring uses the defaults. */
export interface AuthOverrides {
  clock?: Clock;
  smsGateway?: SmsGateway;
  /** Redis key prefix (default "auth:"); tests give each file its own. */
  redisPrefix?: string;
  /** Group of the billing.subscription.v1 consumer (default "auth"); the contact consumer's is `<it>.contact`. */
  consumerGroupId?: string;
  /** First retry delay of the mail relay (default 1 s); tests shorten it. */
  mailRetryDelayMs?: number;
}

export interface AuthService {
  lifecycle: Lifecycle;
  /** Publishes the events stored with account documents (common's outbox). */
  accountEvents: OutboxRelay;
  /** Publishes the events stored with API key documents. */
  apiKeyEvents: OutboxRelay;
  /** Sends queued mail; `mailRelay.runNow()` in tests. */
  mailRelay: PeriodicTask;
  mailOutbox: MongoMailOutbox;
  pendingSignUpSweeper: PeriodicTask;
  sessionSweeper: PeriodicTask;
  grpc: GrpcServer;
  health: HttpServer;
  domain: AuthDomain;
  subscriptions: EventConsumer<SubscriptionChanged>;
  /** content.feedback.v1: acknowledges face B's contact form by mail. */
  contacts: EventConsumer<FeedbackReceived>;
  mailReceiptSweeper: PeriodicTask;
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

  // The relays need the repositories' collections and the producer, so they are made further
  // down; writes (and so publishing) happen only after start, when they exist.
  const later: { accountEvents?: OutboxRelay; apiKeyEvents?: OutboxRelay; mailRelay?: PeriodicTask } = {};
  const accountsRepo = new MongoAccountRepository(mongo.connection, clock, async (id) => later.accountEvents?.publishPending(id));
  const apiKeysRepo = new MongoApiKeyRepository(mongo.connection, clock, async (id) => later.apiKeyEvents?.publishPending(id));
  const sessionsRepo = new MongoSessionRepository(mongo.connection);
  const subscriptionsRepo = new MongoSubscriptionRepository(mongo.connection);
  const mailer = new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM });
  const mailOutbox = new MongoMailOutbox(
    mongo.connection,
    mailer,
    moduleLogger(logger, 'mail'),
    () => void later.mailRelay?.runNow(),
    overrides.mailRetryDelayMs === undefined ? {} : { initialRetryDelayMs: overrides.mailRetryDelayMs },
  );
  // autoIndex is off: indexes and topics are created here so a failure stops the start.
  lifecycle.register(
    startupStep('schema', async () => {
      await Promise.all(
        [accountsRepo, sessionsRepo, apiKeysRepo, subscriptionsRepo, mailOutbox].map((repo) => repo.createIndexes()),
      );
      await ensureTopics(
        kafka,
        topicSpecs([TOPICS.authUser, TOPICS.billingSubscription, TOPICS.contentFeedback]),
        moduleLogger(logger, 'kafka.admin'),
      );
    }),
  );
  const producer = lifecycle.register(
    EventProducer.fromConfig({ kafka, source: 'auth', sendTimeoutMs: 10_000 }, moduleLogger(logger, 'kafka.producer')),
  );
  const accountEvents = lifecycle.register(
    OutboxRelay.fromConfig(
      { name: 'accounts-outbox', collection: accountsRepo.collection, producer, topics: [TOPICS.authUser], clock },
      moduleLogger(logger, 'outbox'),
    ),
  );
  const apiKeyEvents = lifecycle.register(
    OutboxRelay.fromConfig(
      { name: 'api-keys-outbox', collection: apiKeysRepo.collection, producer, topics: [TOPICS.authUser], clock },
      moduleLogger(logger, 'outbox'),
    ),
  );

  later.accountEvents = accountEvents;
  later.apiKeyEvents = apiKeyEvents;

  const smsGateway =
    overrides.smsGateway ??
    (config.SMS_GATEWAY === 'log'
      ? new LogSmsGateway(moduleLogger(logger, 'sms'))
      : new HttpSmsGateway({
          url: config.SMS_GATEWAY_URL,
          secret: config.SMS_GATEWAY_SECRET,
          template: config.SMS_GATEWAY_TEMPLATE,
        }));
  const limiter = new RedisRateLimiter(redis, prefix);
  const ipLimits = new IpLimits(limiter, clock, {
    loginsPer15Min: config.LOGINS_PER_IP_PER_15_MIN,
    signUpsPerHour: config.SIGNUPS_PER_IP_PER_HOUR,
    resetsPerHour: config.RESETS_PER_IP_PER_HOUR,
  });
  const hasher = new PasswordHasher(
    { N: config.SCRYPT_N, r: config.SCRYPT_R, p: config.SCRYPT_P, keylen: config.SCRYPT_KEYLEN },
    { maxConcurrent: config.SCRYPT_MAX_CONCURRENT, maxQueue: config.SCRYPT_MAX_QUEUE },
  );
  const views = new UserViews(subscriptionsRepo, clock);

  const sessions = new SessionService(sessionsRepo, new RedisSessionCache(redis, prefix), clock, {
    maxCacheTtlMs: config.SESSION_CACHE_MAX_TTL_SECONDS * 1000,
    idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_SECONDS * 1000,
  });
  const smsCodes = new SmsCodeService(
    new RedisSmsCodeStore(redis, prefix),
    limiter,
    new RedisCooldown(redis, prefix),
    smsGateway,
    clock,
    {
      perIpPerHour: config.SMS_PER_IP_PER_HOUR,
      codeSecret: config.SMS_CODE_SECRET,
      resendMs: config.SMS_RESEND_SECONDS * 1000,
    },
  );
  const apiKeys = new ApiKeyService(apiKeysRepo, new RedisApiKeyCache(redis, prefix), subscriptionsRepo, clock, {
    cacheTtlMs: config.API_KEY_CACHE_TTL_SECONDS * 1000,
  });
  const domain: AuthDomain = {
    smsCodes,
    sessions,
    apiKeys,
    phoneAccounts: new PhoneAccountService(accountsRepo, hasher, sessions, smsCodes, limiter, ipLimits, views, clock),
    emailAccounts: new EmailAccountService(
      accountsRepo,
      hasher,
      sessions,
      new SignedLinks(config.EMAIL_LINK_SECRET),
      new RedisNonceStore(redis, prefix),
      mailOutbox,
      limiter,
      ipLimits,
      views,
      clock,
      { publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''), mailsPerAddressPerHour: config.MAIL_PER_ADDRESS_PER_HOUR },
    ),
    profiles: new ProfileService(accountsRepo, hasher, sessions, limiter, views, clock),
  };

  const groupId = overrides.consumerGroupId ?? config.KAFKA_GROUP_ID;
  const projection = new SubscriptionProjection(subscriptionsRepo, (accountId) => apiKeys.invalidateAccount(accountId));
  const subscriptions = lifecycle.register(
    subscriptionConsumer({
      kafka,
      groupId,
      projection,
      dlqProducer: producer,
      redis,
      logger: moduleLogger(logger, 'kafka.consumer'),
    }),
  );
  // One group per topic (kafkajs): the subscription consumer's is the plain KAFKA_GROUP_ID.
  const contacts = lifecycle.register(
    contactConsumer({
      kafka,
      groupId: `${groupId}.contact`,
      acknowledgements: new ContactAcknowledgements(mailOutbox, limiter, clock, {
        mailsPerAddressPerHour: config.MAIL_PER_ADDRESS_PER_HOUR,
      }),
      dlqProducer: producer,
      redis,
      logger: moduleLogger(logger, 'kafka.contact'),
    }),
  );
  const sessionSweeper = lifecycle.register(
    PeriodicTask.fromConfig(
      { name: 'session-sweeper', intervalMs: config.SESSION_SWEEP_INTERVAL_SECONDS * 1000, run: () => sessions.sweepExpired() },
      logger,
    ),
  );
  const pendingSignUpSweeper = lifecycle.register(
    PeriodicTask.fromConfig(
      {
        name: 'pending-signup-sweeper',
        intervalMs: config.PENDING_SIGNUP_SWEEP_INTERVAL_SECONDS * 1000,
        run: () => accountsRepo.deletePendingCreatedBefore(new Date(clock.now().getTime() - PENDING_SIGNUP_TTL_MS)),
      },
      logger,
    ),
  );
  // Registered before the mail relay, so shutdown (reverse order) stops the relay before closing SMTP.
  lifecycle.register({ name: 'mailer', start: async () => undefined, shutdown: async () => mailer.close() });
  const mailRelay = lifecycle.register(
    PeriodicTask.fromConfig(
      { name: 'mail-relay', intervalMs: config.MAIL_RELAY_INTERVAL_SECONDS * 1000, run: () => mailOutbox.relayOnce() },
      logger,
    ),
  );

  later.mailRelay = mailRelay;
  const mailReceiptSweeper = lifecycle.register(
    PeriodicTask.fromConfig(
      {
        name: 'mail-receipt-sweeper',
        intervalMs: 3600_000,
        run: () => mailOutbox.pruneReceipts(new Date(Date.now() - ACKNOWLEDGEMENT_RECEIPT_MS)),
      },
      logger,
    ),
  );

  const grpc = lifecycle.register(
    GrpcServer.fromConfig({ ...grpcServerConfigFrom(config), policy: authAccessPolicy }, moduleLogger(logger, 'grpc')),
  );
  grpc.addService('ipdata.auth.v1.AuthService', AuthServiceService, authHandlers(domain, moduleLogger(logger, 'grpc.auth')));
  const health = lifecycle.register(
    HttpServer.fromConfig(
      { host: config.HEALTH_HOST, port: config.HEALTH_PORT, name: 'health-server', metrics: true },
      lifecycle,
      moduleLogger(logger, 'health'),
    ),
  );

  return {
    lifecycle,
    accountEvents,
    apiKeyEvents,
    mailRelay,
    mailOutbox,
    pendingSignUpSweeper,
    sessionSweeper,
    grpc,
    health,
    domain,
    subscriptions,
    contacts,
    mailReceiptSweeper,
  };
}
