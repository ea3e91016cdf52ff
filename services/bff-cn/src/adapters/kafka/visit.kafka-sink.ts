import { TOPICS, type EventProducer } from '@ipdata/common';
import type { SiteVisit } from '@ipdata/proto/events/v1/visit';
import type { VisitSink } from '../../visits/visit.ports.js';

/** site.visit.v1 through common's EventProducer, keyed by visitor id (TOPICS.md). */
export class KafkaVisitSink implements VisitSink {
  constructor(private readonly producer: EventProducer) {}

  async send(visit: SiteVisit): Promise<void> {
    await this.producer.send(TOPICS.siteVisit, visit, { key: visit.visitorId });
  }
}
