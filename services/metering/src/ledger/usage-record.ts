import { UsageChannel, UsageResult, type UsageEvent } from '@ipdata/proto/events/v1/usage';
import { toUint32 } from './usage-event.codec.js';

export { UsageChannel, UsageResult };

/** One accepted request, as the request handler knows it (proto/ipdata/events/v1/TOPICS.md, usage.lookup.v1). */
export interface UsageRecord {
  /** The request id (X-Request-Id): the event id, so a re-sent event is recognised by consumers. */
  requestId: string;
  channel: UsageChannel;
  accountId: string;
  apiKeyId: string;
  visitorId: string;
  /** Route template, e.g. '/v1/ip/{ip}', never the concrete path. */
  endpoint: string;
  /** The looked-up address in canonical form; '' for a batch or bulk chunk. */
  ip: string;
  ipVersion: 0 | 4 | 6;
  countryCode: string;
  province: string;
  result: UsageResult;
  httpStatus: number;
  latencyMs: number;
  /** Lookups counted against the quota. */
  count: number;
  /** Lookups answered free (reserved or invalid addresses of a batch). */
  freeCount: number;
  /** When the request was accepted. */
  time: Date;
  /** Face A's `plat` header ("pc" or "wap"); left out for the public API. */
  plat?: string;
}

/**
 * The event a record stands for. record() does not build it (usage-event.codec.ts writes the same
 * bytes directly); it is the readable definition the codec is tested against.
 */
export function toUsageEvent(record: UsageRecord, source: string): UsageEvent {
  return {
    meta: { id: record.requestId, source, time: record.time, correlationId: '' },
    channel: record.channel,
    apiKeyId: record.apiKeyId,
    accountId: record.accountId,
    visitorId: record.visitorId,
    ip: record.ip,
    countryCode: record.countryCode,
    province: record.province,
    endpoint: record.endpoint,
    result: record.result,
    latencyMs: toUint32(record.latencyMs),
    count: toUint32(record.count),
    ipVersion: record.ipVersion,
    httpStatus: toUint32(record.httpStatus),
    freeCount: toUint32(record.freeCount),
    plat: record.plat ?? '',
  };
}

/** The record key of usage.lookup.v1: the API key id, or the visitor id for anonymous lookups. */
export function usageEventKey(event: Pick<UsageEvent, 'apiKeyId' | 'visitorId' | 'accountId'>): string {
  return event.apiKeyId || event.visitorId || event.accountId;
}
