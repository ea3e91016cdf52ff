import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import { QuotaReconciler, quotaFloors, type QuotaCounterFloor, type QuotaUsageRow } from './quota-reconciler.js';

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe('quotaFloors', () => {
  it('sums the month per account and the days per account and per key', () => {
    const rows: QuotaUsageRow[] = [
      { accountId: 'a', apiKeyId: 'k1', day: day('2025-03-01'), lookups: 5 },
      { accountId: 'a', apiKeyId: 'k2', day: day('2025-03-01'), lookups: 2 },
      { accountId: 'a', apiKeyId: 'k1', day: day('2025-03-02'), lookups: 1 },
      { accountId: 'b', apiKeyId: 'k3', day: day('2025-03-02'), lookups: 0 },
    ];
    expect(quotaFloors(rows, '2025-03')).toEqual([
      { kind: 'month', owner: 'a', period: '2025-03', value: 8 },
      { kind: 'accountDay', owner: 'a', period: '2025-03-01', value: 7 },
      { kind: 'keyDay', owner: 'k1', period: '2025-03-01', value: 5 },
      { kind: 'keyDay', owner: 'k2', period: '2025-03-01', value: 2 },
      { kind: 'accountDay', owner: 'a', period: '2025-03-02', value: 1 },
      { kind: 'keyDay', owner: 'k1', period: '2025-03-02', value: 1 },
    ]);
  });
});

describe('QuotaReconciler', () => {
  it('asks for the current UTC month (of one account when named) and reports what it raised', async () => {
    const queries: unknown[] = [];
    const raised: QuotaCounterFloor[][] = [];
    const reconciler = new QuotaReconciler(
      {
        publicApiLookupsByDay: async (query) => {
          queries.push(query);
          return [{ accountId: 'a', apiKeyId: 'k', day: day('2025-03-10'), lookups: 3 }];
        },
      },
      {
        raise: async (floors) => {
          raised.push([...floors]);
          return 2;
        },
      },
      { now: () => new Date('2025-03-31T23:59:00.000Z') },
    );
    const result = await reconciler.reconcile({ accountId: 'a' });
    expect(queries).toEqual([{ from: day('2025-03-01'), to: day('2025-04-01'), accountId: 'a' }]);
    expect(result).toEqual({ accounts: 1, countersRaised: 2, monthStart: day('2025-03-01') });
    expect(raised[0]).toHaveLength(3);
  });

  it('rebuilds December until its last millisecond and January from 00:00 UTC, with 29 February its own day', async () => {
    const queries: Array<{ from: Date; to: Date }> = [];
    const raised: QuotaCounterFloor[][] = [];
    const rows: QuotaUsageRow[] = [
      { accountId: 'a', apiKeyId: 'k', day: day('2026-12-31'), lookups: 3 },
      { accountId: 'a', apiKeyId: 'k', day: day('2028-02-29'), lookups: 4 },
    ];
    const clock = new ManualClock(new Date('2026-12-31T23:59:59.999Z'));
    const reconciler = new QuotaReconciler(
      {
        publicApiLookupsByDay: async (query) => {
          queries.push(query);
          return rows.filter((row) => row.day >= query.from && row.day < query.to);
        },
      },
      {
        raise: async (floors) => {
          raised.push([...floors]);
          return floors.length;
        },
      },
      clock,
    );
    expect((await reconciler.reconcile()).monthStart).toEqual(day('2026-12-01'));
    expect(queries.at(-1)).toEqual({ from: day('2026-12-01'), to: day('2027-01-01') });
    expect(raised.at(-1)).toEqual([
      { kind: 'month', owner: 'a', period: '2026-12', value: 3 },
      { kind: 'accountDay', owner: 'a', period: '2026-12-31', value: 3 },
      { kind: 'keyDay', owner: 'k', period: '2026-12-31', value: 3 },
    ]);

    clock.advance(1);
    expect(await reconciler.reconcile()).toEqual({ accounts: 0, countersRaised: 0, monthStart: day('2027-01-01') });
    expect(queries.at(-1)).toEqual({ from: day('2027-01-01'), to: day('2027-02-01') });

    clock.set(new Date('2028-02-29T23:59:59.999Z'));
    await reconciler.reconcile();
    expect(queries.at(-1)).toEqual({ from: day('2028-02-01'), to: day('2028-03-01') });
    expect(raised.at(-1)).toEqual([
      { kind: 'month', owner: 'a', period: '2028-02', value: 4 },
      { kind: 'accountDay', owner: 'a', period: '2028-02-29', value: 4 },
      { kind: 'keyDay', owner: 'k', period: '2028-02-29', value: 4 },
    ]);
  });
});
