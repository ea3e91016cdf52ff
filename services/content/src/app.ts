import type { Logger } from 'pino';
import {
  EventProducer,
  GrpcServer,
  HttpServer,
  Lifecycle,
  MongoConnection,
  OutboxRelay,
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
import { contentAccessPolicy } from './adapters/grpc/content.access-policy.js';
import { addContentService } from './adapters/grpc/content.handler.js';
import { subscriptionsConsumer } from './adapters/kafka/subscriptions.consumer.js';
import { usersConsumer } from './adapters/kafka/users.consumer.js';
import { MongoMessageStore } from './adapters/mongo/messages.store.js';
import { MongoNewsStore } from './adapters/mongo/news.store.js';
import { MongoNoticeStore } from './adapters/mongo/notices.store.js';
import { MongoSubmissionStore } from './adapters/mongo/submissions.store.js';
import type { ContentConfig } from './config.js';
import { loadContactsFile } from './contacts/contacts.js';
import { Messages } from './messages/messages.js';
import { News } from './news/news.js';
import { Notices } from './notices/notices.js';
import { loadSeedFile } from './seeds/seed-file.js';
import { Submissions } from './submissions/submissions.js';

export interface ContentService {
  lifecycle: Lifecycle;
  /** Runs the outbox relay once now (tests). */
  relayNow(): Promise<void>;
  /** Bound ports (configure 0 to get free ones in tests); `http` serves /healthz and /readyz. */
  ports(): { grpc: number; http: number };
}

/**
 * The wiring: contacts and seed files (read and checked first, so a bad file stops the start
 * before any connection) → Mongo stores → Kafka topics and producer → outbox relay → seeding →
 * domain → consumers → gRPC and health. main.ts calls it with the real config, tests with ports
 * 0 and their own database and groups.
 */
export function buildContentService(config: ContentConfig, deps: { logger: Logger; clock?: Clock }): ContentService {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const contacts = loadContactsFile(config.CONTACTS_FILE);
  if (contacts.sample)
    logger.warn({ file: config.CONTACTS_FILE }, 'customer-service contacts are the shipped samples; replace them');
  const seed = config.SEED_SAMPLES ? loadSeedFile(config.SEED_FILE) : undefined;

  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const { connection } = mongo;
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  const topics = [TOPICS.contentFeedback, TOPICS.authUser, TOPICS.billingSubscription];
  lifecycle.register(startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs(topics), logger)));
  const producer = lifecycle.register(EventProducer.fromConfig({ kafka, source: 'content' }, moduleLogger(logger, 'producer')));

  // FeedbackReceived leaves through the submission document's outbox: sent right after the
  // insert, re-sent by the relay if that send failed.
  const relay = lifecycle.register(
    OutboxRelay.fromConfig(
      {
        name: 'content-outbox',
        collection: connection.collection(MongoSubmissionStore.COLLECTION),
        producer,
        topics: [TOPICS.contentFeedback],
        intervalMs: config.OUTBOX_INTERVAL_MS,
        clock,
      },
      moduleLogger(logger, 'outbox'),
    ),
  );
  const submissionStore = new MongoSubmissionStore(connection, (id) => void relay.publishPending(id));
  const newsStore = new MongoNewsStore(connection);
  const noticeStore = new MongoNoticeStore(connection);
  const messageStore = new MongoMessageStore(connection);
  lifecycle.register(
    startupStep('mongo-indexes', async () => {
      await newsStore.createIndexes();
      await messageStore.createIndexes();
      await submissionStore.createIndexes();
    }),
  );
  if (seed) {
    lifecycle.register(
      startupStep('seed-samples', async () => {
        await newsStore.seed(seed.news);
        await noticeStore.seed(seed.notices);
        logger.info({ news: seed.news.length, notices: seed.notices.length }, 'sample content seeded');
      }),
    );
  }

  const messages = new Messages(messageStore);
  const consumerDeps = { kafka, dlqProducer: producer, sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS, messages };
  // One group per topic: kafkajs requires every member of a group to subscribe to the same topics.
  lifecycle.register(
    usersConsumer({ ...consumerDeps, groupId: `${config.KAFKA_GROUP_ID}.users` }, moduleLogger(logger, 'users')),
  );
  lifecycle.register(
    subscriptionsConsumer(
      { ...consumerDeps, groupId: `${config.KAFKA_GROUP_ID}.subscriptions` },
      moduleLogger(logger, 'subscriptions'),
    ),
  );

  const grpcLogger = moduleLogger(logger, 'grpc');
  const grpc = lifecycle.register(
    GrpcServer.fromConfig({ ...grpcServerConfigFrom(config), policy: contentAccessPolicy }, grpcLogger),
  );
  addContentService(
    grpc,
    {
      news: new News(newsStore),
      notices: new Notices(noticeStore),
      contacts,
      submissions: new Submissions({ store: submissionStore, clock }),
      messages,
    },
    grpcLogger,
  );

  const http = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'health', host: config.HEALTH_HOST, port: config.HEALTH_PORT, routes: [], metrics: true },
      lifecycle,
      moduleLogger(logger, 'http'),
    ),
  );

  return {
    lifecycle,
    relayNow: () => relay.runNow(),
    ports: () => ({ grpc: grpc.boundPort, http: http.boundPort }),
  };
}
