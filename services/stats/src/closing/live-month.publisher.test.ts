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

  it('on start, totals the accounts of the current UTC hour under the current month, on either side of new year', async () => {
    const asked: string[] = [];
    const sent: Array<{ accountId: string; monthStart: string }> = [];
    const source: LiveUsageSource = {
      monthTotals: async (accounts) => new Map(accounts.map((account) => [account, 1])),
      accountsWithUsage: async (hour) => {
        asked.push(hour.toISOString());
        return ['a'];
      },
    };
    const sender: RunningTotalSender = {
      send: async (totals) =>
        void sent.push(...totals.map((t) => ({ accountId: t.accountId, monthStart: t.monthStart.toISOString() }))),
    };
    for (const now of ['2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z']) {
      const publisher = new LiveMonthPublisher(
        3_600_000,
        { usage: source, sender, clock: new ManualClock(new Date(now)) },
        logger,
      );
      await publisher.start();
      try {
        expect(await publisher.runOnce()).toBe(1);
      } finally {
        await publisher.shutdown();
      }
    }
    expect(asked).toEqual(['2026-12-31T23:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(sent).toEqual([
      { accountId: 'a', monthStart: '2026-12-01T00:00:00.000Z' },
      { accountId: 'a', monthStart: '2027-01-01T00:00:00.000Z' },
    ]);
  });

  it('files events of 29 February under February and of 1 March under March', async () => {
    const sent: Array<[string, string]> = [];
    const sender: RunningTotalSender = {
      send: async (totals) => void sent.push(...totals.map((t): [string, string] => [t.accountId, t.monthStart.toISOString()])),
    };
    const publisher = new LiveMonthPublisher(
      60_000,
      { usage, sender, clock: new ManualClock(new Date('2028-03-01T00:00:00Z')) },
      logger,
    );
    publisher.onCounted([counted('a', new Date('2028-02-29T23:59:59.999Z')), counted('a', new Date('2028-03-01T00:00:00.000Z'))]);
    expect(await publisher.runOnce()).toBe(2);
    expect(sent.sort()).toEqual([
      ['a', '2028-02-01T00:00:00.000Z'],
      ['a', '2028-03-01T00:00:00.000Z'],
    ]);
  });
});
