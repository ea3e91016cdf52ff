import { BatchQueueFullError, TurnBatcher, type Logger } from '@ipdata/common';
import { UsageChannel, type UsageEvent, type UsageResult } from '@ipdata/proto/events/v1/usage';
import type { CallContext } from '../face-a/face-a-call.js';

/** Where usage events go (adapters/kafka/usage.kafka-sink.ts: usage.lookup.v1 through common's EventProducer). */
export interface UsageSink {
  /** Resolves once Kafka acknowledged every event. */
  send(events: readonly UsageEvent[]): Promise<void>;
}

export interface FaceAUsage {
  endpoint: string;
  ip: string;
  ipVersion: 0 | 4 | 6;
  countryCode: string;
  province: string;
  result: UsageResult;
  count: number;
  freeCount: number;
}

/**
 * One UsageEvent per face A lookup (channel WEB_CN, the visitor id, the account when logged in),
 * sent without holding up the answer: every event of one event-loop turn goes in one Kafka send
 * (common's TurnBatcher), at most 20,000 wait. Face A lookups only feed trends (no quota), so an
 * event that cannot be sent is logged and dropped — unlike bff-en, whose usage ledger journals
 * events on disk until Kafka has them (README.md, "Gaps").
 */
export class UsageEmitter {
  private readonly batcher: TurnBatcher<UsageEvent, undefined>;
  private dropped = 0;

  constructor(
    sink: UsageSink,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.batcher = new TurnBatcher(
      async (events) => {
        await sink.send(events);
        return events.map(() => undefined);
      },
      { maxBatch: 500, maxInFlight: 2, maxQueue: 20_000 },
    );
  }

  record(context: CallContext, usage: FaceAUsage): void {
    const event: UsageEvent = {
      meta: { id: context.requestId, source: 'bff-cn', time: this.now(), correlationId: '' },
      channel: UsageChannel.USAGE_CHANNEL_WEB_CN,
      apiKeyId: '',
      accountId: context.accountId ?? '',
      visitorId: context.visitorId,
      ip: usage.ip,
      countryCode: usage.countryCode,
      province: usage.province,
      endpoint: usage.endpoint,
      result: usage.result,
      latencyMs: Math.max(0, Math.round(performance.now() - context.startedAt)),
      count: usage.count,
      ipVersion: usage.ipVersion,
      httpStatus: 200,
      freeCount: usage.freeCount,
      plat: context.plat,
    };
    this.batcher.submit(event).catch((error: unknown) => {
      this.dropped++;
      // One line per failed batch is enough; the counter says how many were lost in all.
      if (error instanceof BatchQueueFullError || this.dropped % 100 === 1) {
        this.logger.warn({ err: error, dropped: this.dropped, plat: context.plat }, 'usage event not sent');
      }
    });
  }

  /** Usage events that could not be sent since start. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Resolves once every submitted event was sent or dropped (shutdown, tests). */
  drained(): Promise<void> {
    return this.batcher.drained();
  }
}
