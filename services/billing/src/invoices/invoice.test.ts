import { describe, expect, it } from 'vitest';
import type { SubscriptionChangeRecord } from '../subscriptions/subscription.js';
import { buildInvoice, monthOf, overageUnits } from './invoice.js';

describe('invoice arithmetic', () => {
  it('rounds extra lookups up to the next started 1,000', () => {
    expect(overageUnits(50_000, 50_000)).toBe(0n);
    expect(overageUnits(10, 50_000)).toBe(0n);
    expect(overageUnits(50_001, 50_000)).toBe(1n);
    expect(overageUnits(51_000, 50_000)).toBe(1n);
    expect(overageUnits(51_001, 50_000)).toBe(2n);
    expect(overageUnits(Number.MAX_SAFE_INTEGER, 0)).toBe(9_007_199_254_741n);
  });

  it('takes the calendar month in UTC', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59Z'))).toEqual({
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
  });

  it('rolls the month and the year over at 00:00:00.000 UTC, and February 2028 has 29 days', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      start: new Date('2026-12-01T00:00:00.000Z'),
      end: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(monthOf(new Date('2027-01-01T00:00:00.000Z'))).toEqual({
      start: new Date('2027-01-01T00:00:00.000Z'),
      end: new Date('2027-02-01T00:00:00.000Z'),
    });
    const february = monthOf(new Date('2028-02-29T23:59:59.999Z'));
    expect(february).toEqual({ start: new Date('2028-02-01T00:00:00.000Z'), end: new Date('2028-03-01T00:00:00.000Z') });
    expect((february.end.getTime() - february.start.getTime()) / 86_400_000).toBe(29);
    expect(monthOf(new Date('2027-03-01T00:00:00.000Z')).start).toEqual(new Date('2027-03-01T00:00:00.000Z'));
    // 16:30 UTC on 31 December is 1 January in China: still December (run under TZ=Asia/Shanghai too).
    expect(monthOf(new Date('2026-12-31T16:30:00.000Z')).start).toEqual(new Date('2026-12-01T00:00:00.000Z'));
  });

  it('adds a plan line per period started in the month, marks prepaid ones, and sums integers', () => {
    const change = (overrides: Partial<SubscriptionChangeRecord>): SubscriptionChangeRecord => ({
      id: 'chg',
      accountId: 'a',
      subscriptionId: 's',
      kind: 'API_ACCESS',
      change: 'UPGRADED',
      planId: 'api-standard-monthly',
      tier: 'STANDARD',
      interval: 'MONTHLY',
      priceMinor: 4900,
      currency: 'USD',
      limits: {
        includedLookupsPerMonth: 250_000,
        overagePricePer1kMinor: 50,
        supportLevel: 'priority',
        downloadableDatasets: [],
      },
      periodStart: new Date('2026-03-05T00:00:00Z'),
      periodEnd: new Date('2026-04-05T00:00:00Z'),
      orderId: 'ord_1',
      effectiveAt: new Date('2026-03-05T00:00:00Z'),
      occurredAt: new Date('2026-03-05T00:00:00Z'),
      revision: 2,
      ...overrides,
    });
    const invoice = buildInvoice({
      id: 'inv',
      accountId: 'a',
      month: monthOf(new Date('2026-03-01T00:00:00Z')),
      lookups: 253_001,
      terms: {
        planId: 'api-standard-monthly',
        name: 'Standard',
        includedLookups: 250_000,
        overagePricePer1kMinor: 50,
        currency: 'USD',
      },
      periodsStarted: [change({}), change({ change: 'RENEWED', orderId: null }), change({ priceMinor: 0, planId: 'api-free' })],
      issuedAt: new Date('2026-04-01T00:00:00Z'),
      sourceEventId: 'evt',
    });
    expect(invoice.lines.map((line) => [line.kind, line.amountMinor, line.paidByOrderId])).toEqual([
      ['PLAN', 4900, 'ord_1'],
      ['PLAN', 4900, null],
      ['OVERAGE', 200, null],
    ]);
    expect(invoice.totalMinor).toBe(10_000);
    expect(invoice.amountDueMinor).toBe(5_100);
  });
});
