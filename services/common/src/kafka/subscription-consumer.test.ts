import { SubscriptionChanged, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventConsumer, PoisonRecordError, type ConsumedEvent, type EventConsumerConfig } from './event-consumer.js';
import type { EventProducer } from './event-producer.js';
import {
  billingSubscriptionConsumer,
  type SubscriptionChangeRecord,
  type SubscriptionConsumerConfig,
} from './subscription-consumer.js';
import { TOPICS } from './topic-catalogue.js';

// The consumer itself (decoding, retries, DLQ, commits) is EventConsumer's and tested with a
// broker in test/; here only what the helper hands it: the topic, the group, and the handler.
const logger = pino({ level: 'silent' });

function consumed(
  event: Partial<SubscriptionChanged>,
  id = 'ev-1',
  time = '2027-01-01T00:00:00.000Z',
): ConsumedEvent<SubscriptionChanged> {
  return {
    event: SubscriptionChanged.fromPartial(event),
    id,
    type: 'ipdata.billing.subscription.changed',
    source: 'billing',
    time,
    key: event.accountId ?? null,
    topic: TOPICS.billingSubscription.name,
    partition: 0,
    offset: '0',
    headers: {},
  };
}

function build(options: Partial<SubscriptionConsumerConfig> = {}) {
  const handled: SubscriptionChangeRecord[] = [];
  const fromConfig = vi.spyOn(EventConsumer, 'fromConfig').mockReturnValue({} as never);
  billingSubscriptionConsumer(
    {
      kafka: {} as Kafka,
      groupId: 'svc',
      dlqProducer: {} as EventProducer,
      handle: async (change) => {
        handled.push(change);
      },
      ...options,
    },
    logger,
  );
  const config = fromConfig.mock.calls[0]![0] as unknown as EventConsumerConfig<SubscriptionChanged>;
  return { config, handled, handler: config.handler! };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('billingSubscriptionConsumer', () => {
  it('consumes billing.subscription.v1 in the given group, with its session timeout and de-duplicator', () => {
    const deduplicator = { isProcessed: async () => false, markProcessed: async () => undefined };
    const { config } = build({ groupId: 'downloads', sessionTimeoutMs: 12_000, deduplicator });
    expect(config.topic).toBe(TOPICS.billingSubscription);
    expect(config.groupId).toBe('downloads');
    expect(config.sessionTimeoutMs).toBe(12_000);
    expect(config.deduplicator).toBe(deduplicator);
    expect(config.batchHandler).toBeUndefined();
  });

  it("gives the handler the event's own time, else the record's", async () => {
    const { handler, handled } = build();
    const at = new Date('2027-03-04T05:06:07.000Z');
    await handler(consumed({ accountId: 'acc-1', meta: { id: 'm', source: 'billing', time: at, correlationId: '' } }, 'ev-1'));
    await handler(consumed({ accountId: 'acc-2' }, 'ev-2', '2027-01-01T00:00:00.000Z'));
    expect(handled.map((change) => [change.event.accountId, change.id, change.changedAt.toISOString()])).toEqual([
      ['acc-1', 'ev-1', at.toISOString()],
      ['acc-2', 'ev-2', '2027-01-01T00:00:00.000Z'],
    ]);
  });

  it('passes every kind by default, and only the given kind when one is named', async () => {
    const all = build();
    await all.handler(consumed({ accountId: 'a', kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP }));
    await all.handler(consumed({ accountId: 'a', kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS }));
    expect(all.handled).toHaveLength(2);
    vi.restoreAllMocks();

    const one = build({ kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD });
    await one.handler(consumed({ accountId: 'a', kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP }));
    await one.handler(consumed({ accountId: 'b', kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD }));
    expect(one.handled.map((change) => change.event.accountId)).toEqual(['b']);
  });

  it('sends a change without an account to the DLQ when an account is required, after the kind filter', async () => {
    const lenient = build();
    await lenient.handler(consumed({ accountId: '' }));
    expect(lenient.handled).toHaveLength(1);
    vi.restoreAllMocks();

    const strict = build({ kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD, requireAccount: true });
    // Another kind without an account is skipped, not dead-lettered.
    await strict.handler(consumed({ accountId: '', kind: SubscriptionKind.SUBSCRIPTION_KIND_VIP }));
    await expect(
      strict.handler(consumed({ accountId: '', kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD })),
    ).rejects.toThrow(PoisonRecordError);
    expect(strict.handled).toHaveLength(0);
  });
});
