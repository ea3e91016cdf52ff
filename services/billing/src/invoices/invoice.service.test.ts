import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import { DEFAULT_CATALOGUE_FILE } from '../config.js';
import type { Kind } from '../plans/plan.js';
import { PlanCatalogue } from '../plans/plan-catalogue.js';
import type { ChangeHistory } from '../subscriptions/subscription.ports.js';
import { PERIOD_STARTING_CHANGES, type SubscriptionChangeRecord } from '../subscriptions/subscription.js';
import type { Invoice } from './invoice.js';
import { InvoiceService, type InvoiceRepository, type MonthUsageRepository } from './invoice.service.js';

const logger = pino({ level: 'silent' });
const catalogue = PlanCatalogue.fromFile(DEFAULT_CATALOGUE_FILE);
const ACCOUNT = '0f7a2b1c-0000-4000-8000-000000000002';
const at = (iso: string) => new Date(iso);

/** The plan history as the Mongo store answers it. */
class MemoryHistory implements ChangeHistory {
  readonly changes: SubscriptionChangeRecord[] = [];
  async record(change: SubscriptionChangeRecord) {
    this.changes.push(change);
  }
  async latestBefore(accountId: string, kind: Kind, before: Date) {
    const earlier = this.changes.filter((c) => c.accountId === accountId && c.kind === kind && c.effectiveAt < before);
    return earlier.sort((a, b) => b.effectiveAt.getTime() - a.effectiveAt.getTime() || b.revision - a.revision)[0] ?? null;
  }
  async periodsStartedIn(accountId: string, kind: Kind, from: Date, to: Date) {
    return this.changes.filter(
      (c) =>
        c.accountId === accountId &&
        c.kind === kind &&
        PERIOD_STARTING_CHANGES.includes(c.change) &&
        c.periodStart >= from &&
        c.periodStart < to,
    );
  }
}

/** Closed hours (unique per account and hour) and the largest running total per month. */
class MemoryUsage implements MonthUsageRepository {
  private readonly hours = new Map<string, { monthStart: Date; lookups: number }>();
  private readonly running = new Map<string, number>();
  async recordClosedHour(hour: { accountId: string; periodStart: Date; lookups: number; monthStart: Date }) {
    const key = `${hour.accountId}|${hour.periodStart.toISOString()}`;
    if (this.hours.has(key)) return false;
    this.hours.set(key, { monthStart: hour.monthStart, lookups: hour.lookups });
    return true;
  }
  async recordRunningTotal(total: { accountId: string; monthStart: Date; lookups: number }) {
    const key = `${total.accountId}|${total.monthStart.toISOString()}`;
    this.running.set(key, Math.max(this.running.get(key) ?? 0, total.lookups));
  }
  async usageOf(accountId: string, monthStart: Date) {
    let closedHours = 0;
    for (const [key, hour] of this.hours) {
      if (key.startsWith(`${accountId}|`) && hour.monthStart.getTime() === monthStart.getTime()) closedHours += hour.lookups;
    }
    return { closedHours, running: this.running.get(`${accountId}|${monthStart.toISOString()}`) ?? 0 };
  }
}

class MemoryInvoices implements InvoiceRepository {
  readonly invoices: Invoice[] = [];
  async insert(invoice: Invoice) {
    const month = invoice.periodStart.getTime();
    if (this.invoices.some((i) => i.accountId === invoice.accountId && i.periodStart.getTime() === month)) return false;
    this.invoices.push(invoice);
    return true;
  }
  async get(id: string) {
    return this.invoices.find((invoice) => invoice.id === id) ?? null;
  }
  async listByAccount(accountId: string, offset: number, limit: number) {
    return this.invoices.filter((invoice) => invoice.accountId === accountId).slice(offset, offset + limit);
  }
}

/** A period of api-standard-monthly (250,000 included, 50 minor units per started 1,000 over) starting at `start`. */
function standardPeriod(change: 'CREATED' | 'RENEWED', start: string, end: string, revision: number): SubscriptionChangeRecord {
  const plan = catalogue.get('api-standard-monthly');
  return {
    id: `chg_${revision}`,
    accountId: ACCOUNT,
    subscriptionId: 'sub_1',
    kind: 'API_ACCESS',
    change,
    planId: plan.id,
    tier: plan.tier,
    interval: plan.interval,
    priceMinor: plan.priceMinor,
    currency: plan.currency,
    limits: plan.limits,
    periodStart: at(start),
    periodEnd: at(end),
    orderId: change === 'CREATED' ? 'ord_1' : null,
    effectiveAt: at(start),
    occurredAt: at(start),
    revision,
  };
}

function setup(now: string) {
  const clock = new ManualClock(at(now));
  const history = new MemoryHistory();
  const usage = new MemoryUsage();
  const invoices = new MemoryInvoices();
  const service = new InvoiceService({ invoices, usage, history, catalogue, clock, logger });
  return { clock, history, usage, invoices, service };
}

const summary = (invoice: Invoice) => ({
  period: [invoice.periodStart.toISOString(), invoice.periodEnd.toISOString()],
  lookups: invoice.lookups,
  lines: invoice.lines.map((line) => [line.kind, line.quantity, line.amountMinor]),
  totalMinor: invoice.totalMinor,
});

describe('InvoiceService: calendar months in UTC, overage per month', () => {
  it('the upcoming invoice is December’s until its last millisecond and January’s, from zero, at 00:00 UTC', async () => {
    const { clock, history, service } = setup('2026-12-31T23:59:59.999Z');
    await history.record(standardPeriod('CREATED', '2026-12-05T00:00:00.000Z', '2027-01-05T00:00:00.000Z', 1));
    await service.recordClosedHour({
      eventId: 'h1',
      accountId: ACCOUNT,
      periodStart: at('2026-12-31T23:00:00.000Z'),
      lookups: 252_500,
    });
    await service.recordRunningMonth({ accountId: ACCOUNT, periodStart: at('2027-01-01T00:00:00.000Z'), lookups: 1_001 });

    expect(summary(await service.upcomingInvoice(ACCOUNT))).toEqual({
      period: ['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      lookups: 252_500,
      lines: [
        ['PLAN', 1, 4900],
        ['OVERAGE', 3, 150],
      ],
      totalMinor: 5050,
    });

    clock.advance(1);
    // January: December's lookups stay in December; no period started yet in January (renewal on the 5th).
    expect(summary(await service.upcomingInvoice(ACCOUNT))).toEqual({
      period: ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      lookups: 1_001,
      lines: [
        ['PLAN', 1, 0],
        ['OVERAGE', 0, 0],
      ],
      totalMinor: 0,
    });
  });

  it('issues February 2028 with its 29 days: the renewal on the 29th is charged in February, overage on February’s lookups', async () => {
    const { history, service } = setup('2028-03-01T00:10:00.000Z');
    await history.record(standardPeriod('CREATED', '2028-01-29T12:00:00.000Z', '2028-02-29T12:00:00.000Z', 1));
    await history.record(standardPeriod('RENEWED', '2028-02-29T12:00:00.000Z', '2028-03-29T12:00:00.000Z', 2));
    const invoice = await service.issueForClosedMonth({
      eventId: 'rollup:m:feb',
      accountId: ACCOUNT,
      periodStart: at('2028-02-01T00:00:00.000Z'),
      lookups: 251_000,
    });
    expect(summary(invoice!)).toEqual({
      period: ['2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
      lookups: 251_000,
      lines: [
        ['PLAN', 1, 4900],
        ['OVERAGE', 1, 50],
      ],
      totalMinor: 4950,
    });
    expect(invoice!.lines[0]!.description).toBe('api-standard-monthly 2028-02-29 – 2028-03-29 (renewed)');
    expect(invoice!.issuedAt).toEqual(at('2028-03-01T00:10:00.000Z'));
    // January got its own period line (the 29th); the month is decided by the rollup, not by the clock.
    const january = await service.issueForClosedMonth({
      eventId: 'rollup:m:jan',
      accountId: ACCOUNT,
      periodStart: at('2028-01-01T00:00:00.000Z'),
      lookups: 10,
    });
    expect(summary(january!).lines).toEqual([
      ['PLAN', 1, 4900],
      ['OVERAGE', 0, 0],
    ]);
  });

  it('files a closed hour by its own month: 23:00 on 31 December is December, 00:00 on 1 January is January', async () => {
    const { clock, service } = setup('2027-01-01T00:30:00.000Z');
    await service.recordClosedHour({
      eventId: 'h-dec',
      accountId: ACCOUNT,
      periodStart: at('2026-12-31T23:00:00.000Z'),
      lookups: 7,
    });
    await service.recordClosedHour({
      eventId: 'h-jan',
      accountId: ACCOUNT,
      periodStart: at('2027-01-01T00:00:00.000Z'),
      lookups: 5,
    });
    expect((await service.upcomingInvoice(ACCOUNT)).lookups).toBe(5);
    clock.set(at('2026-12-31T23:59:59.999Z'));
    expect((await service.upcomingInvoice(ACCOUNT)).lookups).toBe(7);
  });
});
