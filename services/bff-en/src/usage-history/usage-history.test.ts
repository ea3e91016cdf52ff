import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { UnavailableError } from '@ipdata/common';
import { UsageHistory, type UsageHistorySource } from './usage-history.js';

const query = { accountId: 'a', keyId: 'k', from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-03T00:00:00Z') };
const counters = {
  account: [
    { date: '2026-11-01', count: 1 },
    { date: '2026-11-02', count: 2 },
  ],
  key: [
    { date: '2026-11-01', count: 1 },
    { date: '2026-11-02', count: 0 },
  ],
};
const logger = pino({ level: 'silent' });

describe('UsageHistory', () => {
  it("answers the stats service's per-day counts when it answers", async () => {
    const rollups = {
      account: [
        { date: '2026-11-01', count: 5 },
        { date: '2026-11-02', count: 7 },
      ],
      key: [
        { date: '2026-11-01', count: 5 },
        { date: '2026-11-02', count: 3 },
      ],
    };
    const asked: unknown[] = [];
    const source: UsageHistorySource = {
      perDay: async (q) => {
        asked.push(q);
        return rollups;
      },
    };
    expect(await new UsageHistory(source, logger).perDay(query, counters)).toEqual(rollups);
    expect(asked).toEqual([query]);
  });

  it('falls back to the quota counters when stats fails, and when there is no stats service', async () => {
    const failing: UsageHistorySource = {
      perDay: async () => {
        throw new UnavailableError('stats down');
      },
    };
    expect(await new UsageHistory(failing, logger).perDay(query, counters)).toBe(counters);
    expect(await new UsageHistory(undefined, logger).perDay(query, counters)).toBe(counters);
  });
});
