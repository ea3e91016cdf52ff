import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { describe, expect, it } from 'vitest';
import { carriedKey } from '../closing/carry.js';
import type { CountedEvent } from './ledger-ports.js';
import { usageFold } from './usage-fold.js';

function counted(offset: number, time: string, count = 1, channel = UsageChannel.USAGE_CHANNEL_PUBLIC_API): CountedEvent {
  const event = UsageEvent.fromPartial({ accountId: 'acct', apiKeyId: 'key', channel, endpoint: '/v1/asn', count });
  return { event, id: `e${offset}`, time: new Date(time), partition: 3, offset };
}

/** The fold's deltas by document id: the counters each document gets, summed over the round. */
function byDocument(events: CountedEvent[], openFrom: string): Map<string, Record<string, number>> {
  const docs = new Map<string, Record<string, number>>();
  for (const delta of usageFold(events, { partition: 3, openFrom: new Date(openFrom) })) {
    const sums: Record<string, number> = {};
    for (const { inc } of delta.increments)
      for (const [name, value] of Object.entries(inc)) sums[name] = (sums[name] ?? 0) + value;
    docs.set(delta.id, sums);
  }
  return docs;
}

describe('usageFold across the year boundary and the leap day', () => {
  it('puts the year’s last millisecond in 31 December’s hour and day, and 00:00 in 1 January’s', () => {
    const docs = byDocument(
      [counted(1, '2026-12-31T23:59:59.999Z', 4), counted(2, '2027-01-01T00:00:00.000Z', 6)],
      '2026-12-31T23:00:00.000Z',
    );
    expect([...docs.keys()].sort()).toEqual([
      '3|acct|key|1|d|2026-12-31T00:00:00.000Z',
      '3|acct|key|1|d|2027-01-01T00:00:00.000Z',
      '3|acct|key|1|h|2026-12-31T23:00:00.000Z',
      '3|acct|key|1|h|2027-01-01T00:00:00.000Z',
    ]);
    expect(docs.get('3|acct|key|1|h|2026-12-31T23:00:00.000Z')).toMatchObject({ lookups: 4, requests: 1 });
    expect(docs.get('3|acct|key|1|d|2026-12-31T00:00:00.000Z')).toMatchObject({ lookups: 4, requests: 1 });
    expect(docs.get('3|acct|key|1|h|2027-01-01T00:00:00.000Z')).toMatchObject({ lookups: 6, requests: 1 });
    expect(docs.get('3|acct|key|1|d|2027-01-01T00:00:00.000Z')).toMatchObject({ lookups: 6, requests: 1 });
    // Neither hour is closed yet: nothing is carried.
    expect([...docs.values()].some((c) => Object.keys(c).some((name) => name.startsWith('cr:')))).toBe(false);
  });

  it('carries a late lookup of December’s last hour into January’s first open hour, in its own hour document only', () => {
    const openFrom = '2027-01-01T00:00:00.000Z';
    const docs = byDocument([counted(1, '2026-12-31T23:59:59.999Z', 5), counted(2, openFrom, 2)], openFrom);
    expect(docs.get('3|acct|key|1|h|2026-12-31T23:00:00.000Z')).toEqual(
      expect.objectContaining({ lookups: 5, [carriedKey(new Date(openFrom))]: 5 }),
    );
    // The day document of 31 December counts it as that day's usage, without a carry.
    const december = docs.get('3|acct|key|1|d|2026-12-31T00:00:00.000Z')!;
    expect(december['lookups']).toBe(5);
    expect(Object.keys(december).some((name) => name.startsWith('cr:'))).toBe(false);
    expect(Object.keys(docs.get(`3|acct|key|1|h|${openFrom}`)!).some((name) => name.startsWith('cr:'))).toBe(false);
  });

  it('counts 29 February as a day of its own, and its last hour is late once 1 March is open', () => {
    const docs = byDocument(
      [
        counted(1, '2028-02-28T23:59:59.999Z'),
        counted(2, '2028-02-29T00:00:00.000Z'),
        counted(3, '2028-02-29T23:30:00.000Z', 3),
        counted(4, '2028-03-01T00:00:00.000Z'),
      ],
      '2028-03-01T00:00:00.000Z',
    );
    expect([...docs.keys()].filter((id) => id.includes('|d|')).sort()).toEqual([
      '3|acct|key|1|d|2028-02-28T00:00:00.000Z',
      '3|acct|key|1|d|2028-02-29T00:00:00.000Z',
      '3|acct|key|1|d|2028-03-01T00:00:00.000Z',
    ]);
    expect(docs.get('3|acct|key|1|d|2028-02-29T00:00:00.000Z')).toMatchObject({ lookups: 4, requests: 2 });
    expect(docs.get('3|acct|key|1|h|2028-02-29T23:00:00.000Z')).toMatchObject({
      lookups: 3,
      [carriedKey(new Date('2028-03-01T00:00:00.000Z'))]: 3,
    });
  });
});
