import { UsageChannel } from '@ipdata/proto/events/v1/usage';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import type { CounterDoc, CounterQuery, CounterReader } from '../counters/counter-query.js';
import type { AccountPlan, AccountPlans } from './account-plan.js';
import { UsageQueries } from './usage.queries.js';

const PUBLIC_API = UsageChannel.USAGE_CHANNEL_PUBLIC_API;
const at = (iso: string) => new Date(iso);

/** usage_rollups in memory, read as the Mongo reader does: equal dimensions, periodStart in [from, to). */
class MemoryReader implements CounterReader {
  readonly docs: CounterDoc[] = [];
  readonly asked: CounterQuery[] = [];
  add(g: 'h' | 'd', periodStart: string, lookups: number, channel = PUBLIC_API): void {
    const dims = { accountId: 'acct', apiKeyId: 'key', channel, g };
    this.docs.push({
      id: `${this.docs.length}`,
      partition: this.docs.length % 3,
      periodStart: at(periodStart),
      dims,
      c: { lookups },
    });
  }
  async find(query: CounterQuery): Promise<CounterDoc[]> {
    this.asked.push(query);
    return this.docs.filter(
      (doc) =>
        doc.periodStart >= query.from &&
        doc.periodStart < query.to &&
        Object.entries(query.equals).every(([name, value]) => doc.dims[name] === value),
    );
  }
}

function plans(plan: AccountPlan | null): AccountPlans {
  return { record: async () => undefined, get: async () => plan };
}

describe('UsageQueries.getMonthUsage at the turn of the month', () => {
  const reader = new MemoryReader();
  reader.add('d', '2026-11-30T00:00:00.000Z', 1_000);
  reader.add('d', '2026-12-01T00:00:00.000Z', 4);
  reader.add('d', '2026-12-31T00:00:00.000Z', 6);
  reader.add('d', '2026-12-31T00:00:00.000Z', 50, UsageChannel.USAGE_CHANNEL_WEB_EN);
  reader.add('d', '2027-01-01T00:00:00.000Z', 100);
  reader.add('d', '2028-02-29T00:00:00.000Z', 9);
  reader.add('d', '2028-03-01T00:00:00.000Z', 90);

  it('is December until its last millisecond and January from 00:00 UTC on 1 January', async () => {
    const clock = new ManualClock(at('2026-12-31T23:59:59.999Z'));
    const queries = new UsageQueries({ reader, plans: plans(null), clock });
    expect(await queries.getMonthUsage('acct')).toMatchObject({
      monthStart: at('2026-12-01T00:00:00.000Z'),
      resetsAt: at('2027-01-01T00:00:00.000Z'),
      used: 10,
      asOf: clock.now(),
    });
    clock.advance(1);
    expect(await queries.getMonthUsage('acct')).toMatchObject({
      monthStart: at('2027-01-01T00:00:00.000Z'),
      resetsAt: at('2027-02-01T00:00:00.000Z'),
      used: 100,
    });
  });

  it('counts 29 February in February of a leap year', async () => {
    const queries = new UsageQueries({ reader, plans: plans(null), clock: new ManualClock(at('2028-02-29T23:59:59.999Z')) });
    expect(await queries.getMonthUsage('acct')).toMatchObject({
      monthStart: at('2028-02-01T00:00:00.000Z'),
      resetsAt: at('2028-03-01T00:00:00.000Z'),
      used: 9,
    });
  });

  it('measures the month against the plan in force at that instant: a paid period ending at 00:00 on 1 January', async () => {
    const plan: AccountPlan = {
      accountId: 'acct',
      planId: 'api-standard-monthly',
      includedPerMonth: 8,
      periodEnd: at('2027-01-01T00:00:00.000Z'),
      canceled: false,
      changedAt: at('2026-12-01T00:00:00.000Z'),
    };
    const clock = new ManualClock(at('2026-12-31T23:59:59.999Z'));
    const queries = new UsageQueries({ reader, plans: plans(plan), clock });
    expect(await queries.getMonthUsage('acct')).toMatchObject({
      planId: 'api-standard-monthly',
      included: 8,
      used: 10,
      remaining: 0,
      overage: 2,
    });
    clock.advance(1);
    // January: FREE again, and January's lookups only.
    expect(await queries.getMonthUsage('acct')).toMatchObject({ planId: 'api-free', included: 50_000, used: 100, overage: 0 });
  });
});

describe('UsageQueries.getUsage buckets across the year and the leap day', () => {
  const reader = new MemoryReader();
  reader.add('d', '2026-12-31T00:00:00.000Z', 6);
  reader.add('d', '2027-01-01T00:00:00.000Z', 100);
  reader.add('h', '2026-12-31T23:00:00.000Z', 6);
  reader.add('h', '2027-01-01T00:00:00.000Z', 100);
  reader.add('d', '2028-02-28T00:00:00.000Z', 1);
  reader.add('d', '2028-02-29T00:00:00.000Z', 2);
  reader.add('d', '2028-03-01T00:00:00.000Z', 3);
  const queries = new UsageQueries({ reader, plans: plans(null), clock: new ManualClock(at('2028-06-01T00:00:00.000Z')) });
  const lookups = (result: Awaited<ReturnType<UsageQueries['getUsage']>>) =>
    result.buckets.map((bucket) => [bucket.periodStart.toISOString(), bucket.lookups]);

  it('months: 31 December in December, 1 January in January', async () => {
    const months = await queries.getUsage({
      accountId: 'acct',
      apiKeyId: '',
      from: at('2026-11-15T00:00:00.000Z'),
      to: at('2027-02-10T00:00:00.000Z'),
      granularity: 'month',
    });
    expect(lookups(months)).toEqual([
      ['2026-11-01T00:00:00.000Z', 0],
      ['2026-12-01T00:00:00.000Z', 6],
      ['2027-01-01T00:00:00.000Z', 100],
    ]);
  });

  it('hours and days on either side of 00:00 UTC on 1 January', async () => {
    const range = { accountId: 'acct', apiKeyId: '', from: at('2026-12-31T22:30:00.000Z'), to: at('2027-01-01T01:00:00.000Z') };
    expect(lookups(await queries.getUsage({ ...range, granularity: 'hour' }))).toEqual([
      ['2026-12-31T22:00:00.000Z', 0],
      ['2026-12-31T23:00:00.000Z', 6],
      ['2027-01-01T00:00:00.000Z', 100],
    ]);
    const days = await queries.getUsage({ ...range, to: at('2027-01-02T00:00:00.000Z'), granularity: 'day' });
    expect(lookups(days)).toEqual([
      ['2026-12-31T00:00:00.000Z', 6],
      ['2027-01-01T00:00:00.000Z', 100],
    ]);
  });

  it('days: 28 February, 29 February, 1 March in 2028', async () => {
    const days = await queries.getUsage({
      accountId: 'acct',
      apiKeyId: '',
      from: at('2028-02-28T00:00:00.000Z'),
      to: at('2028-03-02T00:00:00.000Z'),
      granularity: 'day',
    });
    expect(lookups(days)).toEqual([
      ['2028-02-28T00:00:00.000Z', 1],
      ['2028-02-29T00:00:00.000Z', 2],
      ['2028-03-01T00:00:00.000Z', 3],
    ]);
    expect(days.total.lookups).toBe(6);
  });
});
