import { RollupGranularity, UsageRollup } from '@ipdata/proto/events/v1/billing';
import { EventMeta } from '@ipdata/proto/events/v1/envelope';
import { outboxEvent, TOPICS, type EventProducer, type OutboxEvent } from '@ipdata/common';
import type { ClosedPeriod, ClosedRecord, RunningTotalSender } from '../../closing/closing-ports.js';

const GRANULARITY: Record<ClosedPeriod, RollupGranularity> = {
  hour: RollupGranularity.ROLLUP_GRANULARITY_HOUR,
  month: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
};

const PREFIX: Record<ClosedPeriod, string> = { hour: 'h', month: 'm' };

/** `usage_closed` id and the event id's tail: `h|<account>|<hour ISO>`, `m|<account>|<month ISO>`. */
export function closedRecordId(record: Pick<ClosedRecord, 'period' | 'accountId' | 'periodStart'>): string {
  return `${PREFIX[record.period]}|${record.accountId}|${record.periodStart.toISOString()}`;
}

/**
 * The event id of a closed period, fixed by (period, account, start): a second closing run, a
 * relay re-send or a second closer produce the same id, so billing drops the copy.
 */
export function closedRollupEventId(record: Pick<ClosedRecord, 'period' | 'accountId' | 'periodStart'>): string {
  return `rollup:${PREFIX[record.period]}:${record.accountId}:${record.periodStart.toISOString()}`;
}

/** The UsageRollup (account total, `closed = true`) of a closed record, encoded for the outbox. */
export function closedRollupOutboxEvent(record: ClosedRecord, now: Date): OutboxEvent {
  const event = UsageRollup.fromPartial({
    meta: EventMeta.fromPartial({ id: closedRollupEventId(record), source: 'stats', time: now }),
    accountId: record.accountId,
    apiKeyId: '',
    granularity: GRANULARITY[record.period],
    periodStart: record.periodStart,
    lookups: record.lookups,
    closed: true,
  });
  return outboxEvent(TOPICS.usageRollup, event, { key: record.accountId, now });
}

/**
 * A running month total (`closed = false`). Its id names the total it carries: a re-send of
 * the same total is a duplicate, a larger one is news.
 */
export function runningMonthRollup(total: { accountId: string; monthStart: Date; lookups: number }, now: Date): UsageRollup {
  return UsageRollup.fromPartial({
    meta: EventMeta.fromPartial({
      id: `rollup:m-open:${total.accountId}:${total.monthStart.toISOString()}:${total.lookups}`,
      source: 'stats',
      time: now,
    }),
    accountId: total.accountId,
    apiKeyId: '',
    granularity: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
    periodStart: total.monthStart,
    lookups: total.lookups,
    closed: false,
  });
}

/** Running totals straight to usage.rollup.v1 (no outbox: the next total supersedes a lost one). */
export class ProducerRunningTotalSender implements RunningTotalSender {
  constructor(private readonly producer: EventProducer) {}

  async send(totals: ReadonlyArray<{ accountId: string; monthStart: Date; lookups: number }>, now: Date): Promise<void> {
    await this.producer.sendMany(
      TOPICS.usageRollup,
      totals.map((total) => ({ event: runningMonthRollup(total, now), key: total.accountId })),
    );
  }
}
