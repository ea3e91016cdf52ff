import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { describe, expect, it } from 'vitest';
import type { CountedEvent } from '../ledger/ledger-ports.js';
import { trendDocId, trendFold } from './trend-fold.js';

const OPEN_FROM = new Date('2026-03-01T00:00:00.000Z');

function counted(offset: number, time: string, fields: Partial<UsageEvent>): CountedEvent {
  const event = UsageEvent.fromPartial({ channel: UsageChannel.USAGE_CHANNEL_WEB_CN, count: 1, ...fields });
  return { event, id: `e${offset}`, time: new Date(time), partition: 4, offset };
}

describe('trendFold', () => {
  it('counts requests and lookups per country, province and endpoint in hour and day documents', () => {
    const deltas = trendFold(
      [
        counted(10, '2026-03-02T05:10:00Z', { countryCode: 'CN', province: '广东', endpoint: 'ip_search', count: 1 }),
        counted(11, '2026-03-02T05:50:00Z', { countryCode: 'US', endpoint: 'ip_search', count: 3 }),
        counted(12, '2026-03-02T06:01:00Z', { countryCode: 'CN', province: '北京', endpoint: '/v1/ip/{ip}', count: 0 }),
      ],
      { partition: 4, openFrom: OPEN_FROM },
    );
    const byId = new Map(deltas.map((delta) => [delta.id, delta]));
    const hour5 = byId.get('4|country|3|h|2026-03-02T05:00:00.000Z');
    expect(hour5).toEqual({
      id: '4|country|3|h|2026-03-02T05:00:00.000Z',
      dims: { kind: 'country', channel: 3, g: 'h', periodStart: new Date('2026-03-02T05:00:00Z') },
      increments: [
        { offset: 10, inc: { 'r:CN': 1, 'l:CN': 1 } },
        { offset: 11, inc: { 'r:US': 1, 'l:US': 3 } },
      ],
    });
    // A free lookup (count 0) is a request without lookups.
    expect(byId.get('4|country|3|h|2026-03-02T06:00:00.000Z')?.increments).toEqual([{ offset: 12, inc: { 'r:CN': 1 } }]);
    expect(byId.get('4|country|3|d|2026-03-02T00:00:00.000Z')?.increments.map((i) => i.offset)).toEqual([10, 11, 12]);
    // Events without a province do not count in the province trend.
    expect(byId.get('4|province|3|d|2026-03-02T00:00:00.000Z')?.increments).toEqual([
      { offset: 10, inc: { 'r:广东': 1, 'l:广东': 1 } },
      { offset: 12, inc: { 'r:北京': 1 } },
    ]);
    expect(byId.get('4|endpoint|3|d|2026-03-02T00:00:00.000Z')?.increments).toEqual([
      { offset: 10, inc: { 'r:ip_search': 1, 'l:ip_search': 1 } },
      { offset: 11, inc: { 'r:ip_search': 1, 'l:ip_search': 3 } },
      { offset: 12, inc: { 'r:/v1/ip/{ip}': 1 } },
    ]);
    // 3 kinds × (2 hours + 1 day), every id starting with the partition.
    expect(deltas).toHaveLength(9);
    expect(deltas.every((delta) => delta.id.startsWith('4|'))).toBe(true);
  });

  it('keeps channels apart and counts events with or without an account', () => {
    const deltas = trendFold(
      [
        counted(1, '2026-03-02T05:00:00Z', {
          channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
          accountId: 'acc',
          countryCode: 'DE',
        }),
        counted(2, '2026-03-02T05:00:00Z', { channel: UsageChannel.USAGE_CHANNEL_WEB_EN, countryCode: 'DE' }),
      ],
      { partition: 0, openFrom: OPEN_FROM },
    );
    expect(deltas.map((delta) => delta.id).sort()).toEqual([
      '0|country|1|d|2026-03-02T00:00:00.000Z',
      '0|country|1|h|2026-03-02T05:00:00.000Z',
      '0|country|2|d|2026-03-02T00:00:00.000Z',
      '0|country|2|h|2026-03-02T05:00:00.000Z',
    ]);
  });

  it('encodes keys that are not valid field names', () => {
    const [delta] = trendFold([counted(1, '2026-03-02T05:00:00Z', { endpoint: '/v1.5/$x' })], {
      partition: 0,
      openFrom: OPEN_FROM,
    });
    expect(delta?.increments[0]?.inc).toEqual({ 'r:/v1%2E5/%24x': 1, 'l:/v1%2E5/%24x': 1 });
  });

  it('names documents by partition, kind, channel, granularity and period', () => {
    expect(trendDocId(7, { kind: 'province', channel: 3, g: 'd', periodStart: new Date('2026-01-05T00:00:00Z') })).toBe(
      '7|province|3|d|2026-01-05T00:00:00.000Z',
    );
  });

  it('produces nothing for events without any trend key', () => {
    expect(trendFold([counted(1, '2026-03-02T05:00:00Z', {})], { partition: 0, openFrom: OPEN_FROM })).toEqual([]);
  });
});
