import { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { Consumer, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, MongoConnection, TOPICS, UnavailableError, createKafka } from '@ipdata/common';
import { mongoUrlWithDatabase, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { KafkaSubscriptionEventPublisher } from '../src/adapters/kafka/subscription-events.publisher.js';
import { MongoChangeHistory } from '../src/adapters/mongo/change-history.store.js';
import { MongoSubscriptionRepository } from '../src/adapters/mongo/subscription.store.js';
import { DEFAULT_CATALOGUE_FILE } from '../src/config.js';
import { PlanCatalogue } from '../src/plans/plan-catalogue.js';
import { ManualClock } from '../src/shared/clock.js';
import { SubscriptionService } from '../src/subscriptions/subscription.service.js';
import { logger } from './fixtures/billing-harness.js';

describe('billing: subscription changes survive a Kafka outage (outbox in the subscription document)', () => {
  const stack = stackAddresses();
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('billing_outbox').replace(/-/g, '_')) },
    logger,
  );
  let kafka: Kafka;
  let producer: EventProducer;
  let reader: Consumer;
  const sent: SubscriptionChanged[] = [];

  beforeAll(async () => {
    await mongo.start();
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'billing-outbox-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'billing' }, logger);
    await producer.start();
    reader = kafka.consumer({ groupId: uniqueName('outbox-reader') });
    await reader.connect();
    await reader.subscribe({ topics: [TOPICS.billingSubscription.name], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        if (message.value) sent.push(SubscriptionChanged.decode(message.value));
      },
    });
  });

  afterAll(async () => {
    await reader.disconnect();
    await producer.shutdown();
    await mongo.shutdown();
  });

  it('keeps the change when sending fails and sends it, with the same event id, on the next flush', async () => {
    const repository = new MongoSubscriptionRepository(mongo.connection);
    const history = new MongoChangeHistory(mongo.connection);
    await repository.createIndexes();
    await history.createIndexes();
    const kafkaPublisher = new KafkaSubscriptionEventPublisher(producer);
    let kafkaDown = true;
    const subscriptions = new SubscriptionService({
      repository,
      history,
      publisher: {
        publish: (change) =>
          kafkaDown ? Promise.reject(new UnavailableError('Kafka unreachable')) : kafkaPublisher.publish(change),
      },
      catalogue: PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE),
      orders: { createOrder: () => Promise.reject(new Error('not in this test')) },
      clock: new ManualClock(new Date('2026-03-01T00:00:00Z')),
      logger,
    });
    const account = uniqueName('acct');

    await subscriptions.grantFreePlans(account);
    const stored = await repository.listByAccount(account);
    expect(stored).toHaveLength(2);
    const pendingIds = stored.flatMap((subscription) => subscription.pendingEvents.map((change) => change.id));
    expect(pendingIds).toHaveLength(2);
    expect(await repository.withPendingEvents(10)).toHaveLength(2);

    kafkaDown = false;
    expect(await subscriptions.flushPending()).toBe(2);
    expect(await repository.withPendingEvents(10)).toHaveLength(0);
    const delivered = await waitFor(() => {
      const mine = sent.filter((event) => event.accountId === account);
      return mine.length >= 2 ? mine : undefined;
    });
    expect(delivered.map((event) => event.meta?.id).sort()).toEqual([...pendingIds].sort());
    expect(await subscriptions.flushPending()).toBe(0);
    expect((await history.latestBefore(account, 'API_ACCESS', new Date('2027-01-01')))?.id).toBe(
      stored.find((s) => s.kind === 'API_ACCESS')?.pendingEvents[0]?.id,
    );
  });
});
