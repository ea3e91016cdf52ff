import { TOPICS, type EventProducer } from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import type { UsageSink } from '../../usage/usage-emitter.js';

/** usage.lookup.v1 through common's EventProducer, keyed by visitor id (TOPICS.md). */
export class KafkaUsageSink implements UsageSink {
  constructor(private readonly producer: EventProducer) {}

  async send(events: readonly UsageEvent[]): Promise<void> {
    await this.producer.sendMany(
      TOPICS.usageLookup,
      events.map((event) => ({ event, key: event.visitorId || event.accountId })),
    );
  }
}
