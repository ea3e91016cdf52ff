import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import type { CountedEvent } from '../ledger/ledger-ports.js';
import type { LiveUsageSource, RunningTotalSender } from './closing-ports.js';
import { LiveMonthPublisher } from './live-month.publisher.js';

const logger = pino({ level: 'silent' });
const JANUARY = new Date('2026-01-01T00:00:00.000Z');
const FEBRUARY = new Date('2026-02-01T00:00:00.000Z');

function counted(accountId: string, time: Date, channel = UsageChannel.USAGE_CHANNEL_PUBLIC_API): CountedEvent {
  return {
    event: UsageEvent.fromPartial({ accountId, channel, count: 1 }),
    id: `${accountId}-${time.getTime()}`,
    time,
    partition: 0,
    offset: 0,
  };
}

describe('LiveMonthPublisher', () => {
  const usage: LiveUsageSource = {
    monthTotals: async (accounts, month) => new Map(accounts.map((account) => [account, month.getUTCMonth() + 10])),
    accountsWithUsage: async () => [],
  };

  it('totals each dirty account once per month of its events, and keeps them dirty when a send fails', async () => {
    const sent: Array<{ accountId: string; monthStart: Date; lookups: number }> = [];
    let failing = true;
    const sender: RunningTotalSender = {
      send: async (totals) => {
        if (failing) throw new Error('broker down');
        sent.push(...totals);
      },
    };
    const publisher = new LiveMonthPublisher(60_000, { usage, sender, clock: new ManualClock(FEBRUARY) }, logger);
    publisher.onCounted([
      counted('a', new Date('2026-01-31T23:59:00.000Z')),
      counted('a', new Date('2026-02-01T00:01:00.000Z')),
      counted('a', new Date('2026-02-01T00:02:00.000Z')),
      counted('', new Date('2026-02-01T00:02:00.000Z')),
      counted('web', new Date('2026-02-01T00:02:00.000Z'), UsageChannel.USAGE_CHANNEL_WEB_CN),
    ]);
    expect(publisher.pendingAccounts).toBe(2);

    await expect(publisher.runOnce()).rejects.toThrow('broker down');
    expect(publisher.pendingAccounts).toBe(2);

    failing = false;
    expect(await publisher.runOnce()).toBe(2);
    expect(sent).toEqual(
      expect.arrayContaining([
        { accountId: 'a', monthStart: JANUARY, lookups: 10 },
        { accountId: 'a', monthStart: FEBRUARY, lookups: 11 },
      ]),
    );
    expect(publisher.pendingAccounts).toBe(0);
    expect(await publisher.runOnce()).toBe(0);
  });
});
