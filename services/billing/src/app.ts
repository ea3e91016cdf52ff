import type { Logger } from 'pino';
import {
  EventProducer,
  GrpcServer,
  grpcServerConfigFrom,
  HttpServer,
  Lifecycle,
  MongoConnection,
  OutboxRelay,
  PeriodicTask,
  TOPICS,
  createKafka,
  ensureTopics,
  moduleLogger,
  startupStep,
  systemClock,
  topicSpecs,
  type Clock,
} from '@ipdata/common';
import { MongoChangeHistory } from './adapters/mongo/change-history.store.js';
import { MongoInvoiceRepository } from './adapters/mongo/invoice.store.js';
import { MongoKnownAccounts } from './adapters/mongo/known-accounts.store.js';
import { MongoMonthUsageRepository } from './adapters/mongo/month-usage.store.js';
import { MongoOrderRepository, MongoProcessedCallbacks } from './adapters/mongo/order.store.js';
import { MongoSubscriptionRepository } from './adapters/mongo/subscription.store.js';
import { billingAccessPolicy } from './adapters/grpc/billing.access-policy.js';
import { addBillingService } from './adapters/grpc/billing.handler.js';
import { webhookRoutes } from './adapters/http/webhook.routes.js';
import { userEventsConsumer, usageRollupConsumer } from './adapters/kafka/billing.consumers.js';
import { changeOfOutboxEvent } from './adapters/kafka/subscription-events.js';
import { SandboxCheckout } from './adapters/payments/sandbox-checkout.routes.js';
import { SandboxSessionStore } from './adapters/payments/sandbox-session.store.js';
import { SandboxPaymentProvider } from './adapters/payments/sandbox.provider.js';
import type { BillingConfig } from './config.js';
import { InvoiceService } from './invoices/invoice.service.js';
import { PaymentService } from './payments/payment.service.js';
import { ReturnUrlPolicy } from './payments/return-url.js';
import { PlanCatalogue } from './plans/plan-catalogue.js';
import { BillingSweeper } from './subscriptions/billing.sweeper.js';
import type { SubscriptionRepository } from './subscriptions/subscription.ports.js';
import { SubscriptionService } from './subscriptions/subscription.service.js';

export interface BillingService {
  lifecycle: Lifecycle;
  catalogue: PlanCatalogue;
  subscriptions: SubscriptionService;
  payments: PaymentService;
  invoices: InvoiceService;
  sweeper: BillingSweeper;
  /** Read access for tests and tools (e.g. which subscriptions this instance holds). */
  subscriptionRepository: SubscriptionRepository;
  /** Bound ports (configure 0 to get free ones in tests). */
  ports(): { grpc: number; health: number; webhook: number; checkout: number };
  /** Interfaces the webhook and the sandbox checkout listen on (tests check they are not 0.0.0.0). */
  hosts(): { webhook: string; checkout: string };
}

/**
 * The wiring: catalogue (fails fast on a bad file) → adapters → domain → handlers, each
 * connection registered with the lifecycle in start order. main.ts calls it with the real
 * config; tests call it in-process with ports 0 and a ManualClock.
 */
export function buildBillingService(config: BillingConfig, deps: { logger: Logger; clock?: Clock }): BillingService {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const catalogue = PlanCatalogue.fromFile(config.PLAN_CATALOGUE_FILE);
  const lifecycle = new Lifecycle({ logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const subscriptionRepo = new MongoSubscriptionRepository(mongo.connection);
  const history = new MongoChangeHistory(mongo.connection);
  const orders = new MongoOrderRepository(mongo.connection);
  const callbacks = new MongoProcessedCallbacks(mongo.connection);
  const invoiceRepo = new MongoInvoiceRepository(mongo.connection);
  const monthUsage = new MongoMonthUsageRepository(mongo.connection);
  const sessions = new SandboxSessionStore(mongo.connection);
  const accounts = new MongoKnownAccounts(mongo.connection);
  lifecycle.register(
    startupStep('mongo-indexes', async () => {
      for (const store of [subscriptionRepo, accounts, history, orders, callbacks, invoiceRepo, monthUsage, sessions]) {
        await store.createIndexes();
      }
    }),
  );

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }, logger);
  const topics = [TOPICS.billingSubscription, TOPICS.usageRollup, TOPICS.authUser];
  lifecycle.register(startupStep('kafka-topics', () => ensureTopics(kafka, topicSpecs(topics), logger)));
  const producer = lifecycle.register(EventProducer.fromConfig({ kafka, source: 'billing' }, moduleLogger(logger, 'producer')));

  // Subscription changes leave through the common outbox: each write stores its changes in the
  // subscription document; the relay records them in the plan history, then sends them.
  const outbox = lifecycle.register(
    OutboxRelay.fromConfig(
      {
        name: 'subscriptions-outbox',
        collection: subscriptionRepo.collection,
        producer,
        topics: [TOPICS.billingSubscription],
        intervalMs: config.SWEEP_INTERVAL_MS,
        clock,
        beforeSend: async (entries) => {
          for (const entry of entries) await history.record(changeOfOutboxEvent(entry));
        },
      },
      moduleLogger(logger, 'outbox'),
    ),
  );
  const returnUrls = ReturnUrlPolicy.fromList(config.CHECKOUT_RETURN_ORIGINS);
  const checkout = new SandboxCheckout(
    {
      sessions,
      secret: config.PAYMENT_SANDBOX_SECRET,
      webhookUrl: () => config.PAYMENT_WEBHOOK_URL,
      returnUrls,
      clock,
    },
    moduleLogger(logger, 'sandbox-checkout'),
  );
  // Created now (the provider needs its bound port for checkout URLs), registered below.
  const checkoutServer = HttpServer.fromConfig(
    {
      name: 'sandbox-checkout',
      host: config.SANDBOX_CHECKOUT_HOST,
      port: config.SANDBOX_CHECKOUT_PORT,
      routes: checkout.routes(),
    },
    lifecycle,
    moduleLogger(logger, 'sandbox-checkout'),
  );
  const provider = new SandboxPaymentProvider({
    sessions,
    secret: config.PAYMENT_SANDBOX_SECRET,
    checkoutBaseUrl: () =>
      config.SANDBOX_CHECKOUT_PORT === 0 ? `http://127.0.0.1:${checkoutServer.boundPort}` : config.SANDBOX_CHECKOUT_PUBLIC_URL,
    clock,
    replayWindowMs: config.PAYMENT_CALLBACK_WINDOW_SECONDS * 1000,
  });

  const subscriptionsLogger = moduleLogger(logger, 'subscriptions');
  // PaymentService and SubscriptionService call each other (order creation / paid order); the
  // closure binds late, so both constructors stay plain.
  const payments: PaymentService = new PaymentService({
    orders,
    callbacks,
    provider,
    paidOrders: { applyPaidOrder: (order): Promise<void> => subscriptions.applyPaidOrder(order) },
    clock,
    orderTtlMs: config.ORDER_TTL_MINUTES * 60_000,
    logger: moduleLogger(logger, 'payments'),
  });
  const subscriptions: SubscriptionService = new SubscriptionService({
    repository: subscriptionRepo,
    accounts,
    outbox,
    catalogue,
    orders: payments,
    returnUrls,
    clock,
    logger: subscriptionsLogger,
  });
  const invoices = new InvoiceService({
    invoices: invoiceRepo,
    usage: monthUsage,
    history,
    catalogue,
    clock,
    logger: moduleLogger(logger, 'invoices'),
  });

  const webhookServer = lifecycle.register(
    HttpServer.fromConfig(
      {
        name: 'payment-webhook',
        host: config.WEBHOOK_HOST,
        port: config.WEBHOOK_PORT,
        routes: webhookRoutes({ payments }, moduleLogger(logger, 'webhook')),
      },
      lifecycle,
      moduleLogger(logger, 'webhook'),
    ),
  );
  lifecycle.register(checkoutServer);
  // One group per topic: kafkajs requires every member of a group to subscribe to the same topics.
  const consumerDeps = { kafka, dlqProducer: producer };
  lifecycle.register(
    userEventsConsumer(
      { ...consumerDeps, groupId: `${config.KAFKA_GROUP_ID}.users`, subscriptions },
      moduleLogger(logger, 'user-events'),
    ),
  );
  lifecycle.register(
    usageRollupConsumer({ ...consumerDeps, groupId: config.KAFKA_GROUP_ID, invoices }, moduleLogger(logger, 'usage-rollups')),
  );
  const sweeperLogger = moduleLogger(logger, 'sweeper');
  const sweeper = new BillingSweeper(
    {
      expireOrders: () => payments.expireDueOrders(),
      applyDueChanges: () => subscriptions.applyDueChanges(),
    },
    sweeperLogger,
  );
  lifecycle.register(
    PeriodicTask.fromConfig(
      { name: 'billing-sweeper', intervalMs: config.SWEEP_INTERVAL_MS, run: () => sweeper.runOnce() },
      sweeperLogger,
    ),
  );
  const grpc = lifecycle.register(
    GrpcServer.fromConfig({ ...grpcServerConfigFrom(config), policy: billingAccessPolicy }, moduleLogger(logger, 'grpc')),
  );
  addBillingService(grpc, { catalogue, subscriptions, payments, invoices }, moduleLogger(logger, 'grpc'));
  const health = lifecycle.register(
    HttpServer.fromConfig(
      { name: 'health-server', host: config.HEALTH_HOST, port: config.HEALTH_PORT, metrics: true },
      lifecycle,
      moduleLogger(logger, 'health'),
    ),
  );

  return {
    lifecycle,
    catalogue,
    subscriptions,
    payments,
    invoices,
    sweeper,
    subscriptionRepository: subscriptionRepo,
    ports: () => ({
      grpc: grpc.boundPort,
      health: health.boundPort,
      webhook: webhookServer.boundPort,
      checkout: checkoutServer.boundPort,
    }),
    hosts: () => ({ webhook: webhookServer.boundHost, checkout: checkoutServer.boundHost }),
  };
}
