import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { carriedKey } from '../closing/carry.js';
import { dayStart, hourStart, type CounterDocDelta } from '../counters/counter-delta.js';
import { USAGE_COUNTERS, endpointLookupsKey, endpointRequestsKey, statusKey } from '../usage/usage-counters.js';
import type { CountedEvent, LedgerFold } from './ledger-ports.js';

/**
 * usage_rollups: per (partition, account, key, channel) an hour and a day document with lookups,
 * requests, free items, requests and lookups per endpoint and requests per status. Events without
 * an account (anonymous web lookups) have no usage rollup; they count in the trends.
 *
 * A public API event of an hour before the gate's `openFrom` (closed for billing) is late: its
 * hour document also counts it as carried into `openFrom` (`cr:<openFrom>`), in the same update, so
 * the closer bills it in that open hour and a re-delivery can never carry it twice.
 */
export const usageFold: LedgerFold = (events, { partition, openFrom }) => {
  const docs = new Map<
    string,
    { dims: CounterDocDelta['dims']; increments: Array<{ offset: number; inc: Record<string, number> }> }
  >();
  const add = (id: string, dims: CounterDocDelta['dims'], offset: number, inc: Record<string, number>) => {
    let doc = docs.get(id);
    if (!doc) {
      doc = { dims, increments: [] };
      docs.set(id, doc);
    }
    doc.increments.push({ offset, inc });
  };
  for (const counted of events) {
    const { event } = counted;
    if (event.accountId === '') continue;
    const hour = hourStart(counted.time);
    const inc = incrementsOf(counted);
    const key = `${partition}|${event.accountId}|${event.apiKeyId}|${event.channel}`;
    const dims = { accountId: event.accountId, apiKeyId: event.apiKeyId, channel: event.channel };
    const late =
      event.channel === UsageChannel.USAGE_CHANNEL_PUBLIC_API && hour.getTime() < openFrom.getTime() && event.count > 0;
    add(
      `${key}|h|${hour.toISOString()}`,
      { ...dims, g: 'h', periodStart: hour },
      counted.offset,
      late ? { ...inc, [carriedKey(openFrom)]: event.count } : inc,
    );
    const day = dayStart(counted.time);
    add(`${key}|d|${day.toISOString()}`, { ...dims, g: 'd', periodStart: day }, counted.offset, inc);
  }
  return [...docs].map(([id, doc]) => ({ id, dims: doc.dims, increments: doc.increments }));
};

function incrementsOf({ event }: CountedEvent): Record<string, number> {
  const inc: Record<string, number> = {
    [USAGE_COUNTERS.requests]: 1,
    [endpointRequestsKey(event.endpoint)]: 1,
  };
  if (event.count > 0) {
    inc[USAGE_COUNTERS.lookups] = event.count;
    inc[endpointLookupsKey(event.endpoint)] = event.count;
  }
  if (event.freeCount > 0) inc[USAGE_COUNTERS.free] = event.freeCount;
  if (event.httpStatus > 0) inc[statusKey(event.httpStatus)] = 1;
  return inc;
}
