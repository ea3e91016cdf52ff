import type { SiteVisit } from '@ipdata/proto/events/v1/visit';
import type { GetVisitsResponse } from '@ipdata/proto/stats/v1/stats';

/** site.visit.v1 (adapters/kafka/visit.kafka-sink.ts); resolves once Kafka has the record. */
export interface VisitSink {
  send(visit: SiteVisit): Promise<void>;
}

/** Face A's page views and unique visitors per UTC day from stats (adapters/grpc/stats.adapter.ts). */
export interface VisitCounts {
  visits(range: { from: Date; to: Date; page: string }): Promise<GetVisitsResponse>;
}
