import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { TrendQuery } from '@ipdata/proto/stats/v1/stats';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { trendQueryFromProto } from './trends.grpc.js';

const FROM = new Date('2026-02-01T00:00:00Z');
const TO = new Date('2026-02-02T00:00:00Z');

describe('trendQueryFromProto', () => {
  it('maps granularity, channel (UNSPECIFIED = every channel) and limit', () => {
    const query = (granularity: RollupGranularity, channel: UsageChannel) =>
      trendQueryFromProto(TrendQuery.fromPartial({ from: FROM, to: TO, granularity, channel, limit: 5 }));
    expect(query(RollupGranularity.ROLLUP_GRANULARITY_HOUR, UsageChannel.USAGE_CHANNEL_UNSPECIFIED)).toEqual({
      from: FROM,
      to: TO,
      granularity: 'hour',
      channel: null,
      limit: 5,
    });
    expect(query(RollupGranularity.ROLLUP_GRANULARITY_DAY, UsageChannel.USAGE_CHANNEL_WEB_CN)).toMatchObject({
      granularity: 'day',
      channel: 3,
    });
  });

  it('rejects a missing query, MONTH or unspecified granularity and unknown channels', () => {
    expect(() => trendQueryFromProto(undefined)).toThrow(InvalidArgumentError);
    for (const granularity of [RollupGranularity.ROLLUP_GRANULARITY_MONTH, RollupGranularity.ROLLUP_GRANULARITY_UNSPECIFIED]) {
      expect(() => trendQueryFromProto(TrendQuery.fromPartial({ from: FROM, to: TO, granularity }))).toThrow(/HOUR or DAY/);
    }
    expect(() =>
      trendQueryFromProto(
        TrendQuery.fromPartial({
          from: FROM,
          to: TO,
          granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY,
          channel: 7 as UsageChannel,
        }),
      ),
    ).toThrow(/unknown channel 7/);
  });
});
