import { BillingServiceClient, InvoiceLineKind } from '@ipdata/proto/billing/v1/billing';
import { RollupGranularity, UsageRollup } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDeniedError, callUnary, createGrpcClient } from '@ipdata/common';
import { testGrpcTls, uniqueName, waitFor } from '@ipdata/common/testing';
import { BillingHarness, pressCheckoutButton } from './fixtures/billing-harness.js';

const DECEMBER = new Date('2025-12-01T00:00:00.000Z');
const JANUARY = new Date('2026-01-01T00:00:00.000Z');
const FEBRUARY = new Date('2026-02-01T00:00:00.000Z');

function closedHour(accountId: string, hour: string, lookups: number, extra: Partial<UsageRollup> = {}): UsageRollup {
  return UsageRollup.fromPartial({
    accountId,
    apiKeyId: '',
    granularity: RollupGranularity.ROLLUP_GRANULARITY_HOUR,
    periodStart: new Date(hour),
    lookups,
    closed: true,
    ...extra,
  });
}

function month(accountId: string, start: Date, lookups: number, closed: boolean): UsageRollup {
  return UsageRollup.fromPartial({
    accountId,
    apiKeyId: '',
    granularity: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
    periodStart: start,
    lookups,
    closed,
  });
}

describe('billing: the upcoming invoice from closed hours and running month totals', () => {
  // The harness clock stands at 2026-01-10T12:00Z: the current month is January.
  const harness = new BillingHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  async function upcomingWith(account: string, lookups: number) {
    return waitFor(
      async () => {
        const { invoice } = await harness.api.getUpcomingInvoice(account);
        return invoice?.lookups === lookups ? invoice : undefined;
      },
      { what: `an upcoming invoice with ${lookups} lookups for ${account}` },
    );
  }

  it('counts max(latest running total, Σ closed hours) of the month, each hour once, and charges overage on it', async () => {
    // Standard: 250,000 included, 50 cents per started 1,000 extra, $49.00 paid at checkout.
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-standard-monthly');
    expect((await pressCheckoutButton(order!.checkoutUrl, 'pay')).answer.status).toBe(303);

    const empty = await upcomingWith(account, 0);
    expect(empty).toMatchObject({ id: 'upcoming', accountId: account, periodStart: JANUARY, periodEnd: FEBRUARY });
    expect(empty.issuedAt).toBeUndefined();
    expect(empty.lines).toEqual([
      expect.objectContaining({ kind: InvoiceLineKind.INVOICE_LINE_KIND_PLAN, amountMinor: 4900, paidByOrderId: order!.id }),
      expect.objectContaining({ kind: InvoiceLineKind.INVOICE_LINE_KIND_OVERAGE, quantity: 0, amountMinor: 0 }),
    ]);

    // Closed hours: a second event for the same hour (another id) adds nothing; per-key totals,
    // another month's hour and day rollups are not the account's January total.
    const hourId = uniqueName('closed-hour');
    await harness.sendRollup(closedHour(account, '2026-01-01T00:00:00.000Z', 100_000), hourId);
    await harness.sendRollup(closedHour(account, '2026-01-01T00:00:00.000Z', 100_000), hourId);
    await harness.sendRollup(closedHour(account, '2026-01-05T13:00:00.000Z', 60_000));
    await harness.sendRollup(closedHour(account, '2026-01-05T13:00:00.000Z', 999_999));
    await harness.sendRollup(closedHour(account, '2026-01-05T14:00:00.000Z', 999_999, { apiKeyId: 'key-1' }));
    await harness.sendRollup(closedHour(account, '2025-12-31T23:00:00.000Z', 999_999));
    await harness.sendRollup(
      closedHour(account, '2026-01-06T00:00:00.000Z', 999_999, { granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY }),
    );
    await harness.sendRollup(closedHour(account, '2026-01-06T01:00:00.000Z', 999_999, { closed: false }));
    expect(await upcomingWith(account, 160_000)).toMatchObject({ totalMinor: 4900, amountDueMinor: 0 });

    // The running total is ahead of the closed hours: it counts.
    await harness.sendRollup(month(account, JANUARY, 255_500, false));
    const running = await upcomingWith(account, 255_500);
    expect(running).toMatchObject({ totalMinor: 4900 + 6 * 50, amountDueMinor: 6 * 50 });
    expect(running.lines[1]).toMatchObject({ kind: InvoiceLineKind.INVOICE_LINE_KIND_OVERAGE, quantity: 6, amountMinor: 300 });

    // An older, smaller running total arriving late does not lower it. December's closed month
    // follows on the same partition: once it is invoiced, the smaller total was handled.
    await harness.sendRollup(month(account, JANUARY, 200_000, false));
    await harness.sendRollup(month(account, DECEMBER, 0, true));
    await waitFor(async () => (await harness.api.listInvoices({ accountId: account })).invoices.length === 1 || undefined, {
      what: "December's invoice",
    });
    expect((await harness.api.getUpcomingInvoice(account)).invoice?.lookups).toBe(255_500);

    // The closed hours overtake the running total (it lags by up to an interval): they count.
    await harness.sendRollup(closedHour(account, '2026-01-09T10:00:00.000Z', 100_000));
    const closedAhead = await upcomingWith(account, 260_000);
    expect(closedAhead).toMatchObject({ totalMinor: 4900 + 10 * 50, amountDueMinor: 10 * 50 });

    // When January closes with the same count, the issued invoice is what was announced.
    await harness.sendRollup(month(account, JANUARY, 260_000, true));
    const issued = await waitFor(
      async () =>
        (await harness.api.listInvoices({ accountId: account })).invoices.find(
          (i) => i.periodStart?.getTime() === JANUARY.getTime(),
        ),
      { what: "January's invoice" },
    );
    expect(issued).toMatchObject({
      lookups: closedAhead.lookups,
      totalMinor: closedAhead.totalMinor,
      amountDueMinor: closedAhead.amountDueMinor,
      lines: closedAhead.lines,
    });
    expect(issued.id).not.toBe('upcoming');
  });

  it('answers FREE accounts without charge above the allowance, and only the BFFs', async () => {
    const account = await harness.newAccount();
    await harness.sendRollup(month(account, JANUARY, 70_000, false));
    const invoice = await upcomingWith(account, 70_000);
    expect(invoice).toMatchObject({ planId: 'api-free', includedLookups: 50_000, totalMinor: 0, amountDueMinor: 0 });

    const operator = createGrpcClient(BillingServiceClient, {
      address: `127.0.0.1:${harness.service.ports().grpc}`,
      tls: testGrpcTls('operator'),
    });
    try {
      await expect(callUnary(operator.getUpcomingInvoice.bind(operator), { accountId: account })).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
    } finally {
      operator.close();
    }
  });
});
