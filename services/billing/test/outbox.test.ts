import { randomUUID } from 'node:crypto';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer, MongoConnection, OutboxRelay, TOPICS, UnavailableError, createKafka } from '@ipdata/common';
import { ManualClock, TopicRecorder, mongoUrlWithDatabase, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { changeOfOutboxEvent } from '../src/adapters/kafka/subscription-events.js';
import { MongoChangeHistory } from '../src/adapters/mongo/change-history.store.js';
import { MongoKnownAccounts } from '../src/adapters/mongo/known-accounts.store.js';
import { MongoSubscriptionRepository } from '../src/adapters/mongo/subscription.store.js';
import { DEFAULT_CATALOGUE_FILE } from '../src/config.js';
import { ReturnUrlPolicy } from '../src/payments/return-url.js';
import { PlanCatalogue } from '../src/plans/plan-catalogue.js';
import { SubscriptionService } from '../src/subscriptions/subscription.service.js';
import { logger } from './fixtures/billing-harness.js';

describe('billing: subscription changes survive a Kafka outage (common outbox in the subscription document)', () => {
  const stack = stackAddresses();
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stack.mongoUrl, uniqueName('billing_outbox').replace(/-/g, '_')) },
    logger,
  );
  let kafka: Kafka;
  let producer: EventProducer;
  let recorder: TopicRecorder<SubscriptionChanged>;

  beforeAll(async () => {
    await mongo.start();
    kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'billing-outbox-test' }, logger);
    producer = EventProducer.fromConfig({ kafka, source: 'billing' }, logger);
    await producer.start();
    recorder = await TopicRecorder.start(TOPICS.billingSubscription, { kafka });
  });

  afterAll(async () => {
    await recorder.stop();
    await producer.shutdown();
    await mongo.shutdown();
  });

  it('keeps the change when sending fails and sends it, with the same event id and its plan history, on the next relay run', async () => {
    const repository = new MongoSubscriptionRepository(mongo.connection);
    const history = new MongoChangeHistory(mongo.connection);
    await repository.createIndexes();
    await history.createIndexes();
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    let kafkaDown = true;
    // The real producer behind a switch: while "down", every send fails as an unreachable broker would.
    const switchable = {
      sendMany: (...args: Parameters<EventProducer['sendMany']>) =>
        kafkaDown ? Promise.reject(new UnavailableError('Kafka unreachable')) : producer.sendMany(...args),
    } as unknown as EventProducer;
    const relay = OutboxRelay.fromConfig(
      {
        name: 'test-outbox',
        collection: repository.collection,
        producer: switchable,
        topics: [TOPICS.billingSubscription],
        clock,
        beforeSend: async (entries) => {
          for (const entry of entries) await history.record(changeOfOutboxEvent(entry));
        },
      },
      logger,
    );
    const subscriptions = new SubscriptionService({
      repository,
      accounts: new MongoKnownAccounts(mongo.connection),
      outbox: relay,
      catalogue: PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE),
      orders: { createOrder: () => Promise.reject(new Error('not in this test')) },
      returnUrls: new ReturnUrlPolicy(['https://app.example.test']),
      clock,
      logger,
    });
    const account = randomUUID();

    await subscriptions.grantFreePlans(account);
    const stored = await repository.listByAccount(account);
    expect(stored).toHaveLength(2);
    const pendingIds = stored.flatMap((subscription) => subscription.pendingEvents.map((change) => change.id));
    expect(pendingIds).toHaveLength(2);

    // The relay leaves fresh events to their writer; past staleAfterMs it sends them.
    clock.advance(60_000);
    await expect(relay.relayOnce()).rejects.toThrow(/did not acknowledge/);
    expect((await repository.listByAccount(account)).flatMap((subscription) => subscription.pendingEvents)).toHaveLength(2);

    kafkaDown = false;
    expect(await relay.relayOnce()).toMatchObject({ events: 2 });
    expect((await repository.listByAccount(account)).flatMap((subscription) => subscription.pendingEvents)).toEqual([]);
    const delivered = await waitFor(() => {
      const mine = recorder.events.filter((event) => event.accountId === account);
      return mine.length >= 2 ? mine : undefined;
    });
    expect(delivered.map((event) => event.meta?.id).sort()).toEqual([...pendingIds].sort());
    expect(await relay.relayOnce()).toMatchObject({ events: 0 });
    expect((await history.latestBefore(account, 'API_ACCESS', new Date('2027-01-01')))?.id).toBe(
      stored.find((s) => s.kind === 'API_ACCESS')?.pendingEvents[0]?.id,
    );
  });
});
