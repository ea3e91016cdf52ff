import { randomUUID } from 'node:crypto';
import { InvoiceLineKind } from '@ipdata/proto/billing/v1/billing';
import { RollupGranularity, UsageRollup } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '@ipdata/common';
import { uniqueName, waitFor } from '@ipdata/common/testing';
import { BillingHarness, pressCheckoutButton } from './fixtures/billing-harness.js';

const JANUARY = new Date('2026-01-01T00:00:00.000Z');
const FEBRUARY = new Date('2026-02-01T00:00:00.000Z');

function rollup(accountId: string, lookups: number, extra: Partial<UsageRollup> = {}): UsageRollup {
  return UsageRollup.fromPartial({
    accountId,
    apiKeyId: '',
    granularity: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
    periodStart: JANUARY,
    lookups,
    closed: true,
    ...extra,
  });
}

describe('billing: invoices from closed monthly usage rollups', () => {
  const harness = new BillingHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  async function standardAccount(): Promise<{ account: string; orderId: string }> {
    const account = await harness.newAccount();
    const { order } = await harness.api.subscribe(account, 'api-standard-monthly');
    expect((await pressCheckoutButton(order!.checkoutUrl, 'pay')).answer.status).toBe(303);
    return { account, orderId: order!.id };
  }

  async function invoicesOf(account: string, count: number) {
    return waitFor(
      async () => {
        const { invoices } = await harness.api.listInvoices({ accountId: account });
        return invoices.length >= count ? invoices : undefined;
      },
      { what: `${count} invoice(s) for ${account}` },
    );
  }

  it('charges overage per started 1,000 lookups above the allowance, in integer minor units', async () => {
    // Standard: 250,000 included, 50 cents per extra 1k, $49.00 paid at checkout on Jan 10.
    const cases = [
      { used: 250_000, units: 0 },
      { used: 250_001, units: 1 },
      { used: 251_000, units: 1 },
      { used: 251_001, units: 2 },
    ];
    for (const testCase of cases) {
      const { account, orderId } = await standardAccount();
      await harness.sendRollup(rollup(account, testCase.used));
      const [invoice] = await invoicesOf(account, 1);
      expect(invoice).toMatchObject({
        accountId: account,
        periodStart: JANUARY,
        periodEnd: FEBRUARY,
        currency: 'USD',
        planId: 'api-standard-monthly',
        lookups: testCase.used,
        includedLookups: 250_000,
        totalMinor: 4900 + 50 * testCase.units,
        amountDueMinor: 50 * testCase.units,
      });
      expect(invoice?.lines).toEqual([
        expect.objectContaining({ kind: InvoiceLineKind.INVOICE_LINE_KIND_PLAN, amountMinor: 4900, paidByOrderId: orderId }),
        expect.objectContaining({
          kind: InvoiceLineKind.INVOICE_LINE_KIND_OVERAGE,
          quantity: testCase.units,
          unitPriceMinor: 50,
          amountMinor: 50 * testCase.units,
        }),
      ]);
    }
  });

  it('bills a FREE account nothing (hard cap, no plan charge)', async () => {
    const account = await harness.newAccount();
    await harness.sendRollup(rollup(account, 60_000));
    const [invoice] = await invoicesOf(account, 1);
    expect(invoice).toMatchObject({ planId: 'api-free', includedLookups: 50_000, totalMinor: 0, amountDueMinor: 0 });
    expect(invoice?.lines).toEqual([
      expect.objectContaining({ kind: InvoiceLineKind.INVOICE_LINE_KIND_PLAN, planId: 'api-free', amountMinor: 0 }),
      expect.objectContaining({ kind: InvoiceLineKind.INVOICE_LINE_KIND_OVERAGE, quantity: 10, amountMinor: 0 }),
    ]);
  });

  it('issues one invoice per account and month: re-delivered and repeated closed rollups add nothing', async () => {
    const { account } = await standardAccount();
    // Ignored: an open month, a per-key total and a daily rollup.
    await harness.sendRollup(rollup(account, 999_999, { closed: false }));
    await harness.sendRollup(rollup(account, 999_999, { apiKeyId: 'key-1' }));
    await harness.sendRollup(rollup(account, 999_999, { granularity: RollupGranularity.ROLLUP_GRANULARITY_DAY }));
    const eventId = uniqueName('rollup');
    await harness.sendRollup(rollup(account, 260_000), eventId);
    const [first] = await invoicesOf(account, 1);
    expect(first).toMatchObject({ lookups: 260_000, totalMinor: 4900 + 10 * 50 });

    await harness.sendRollup(rollup(account, 260_000), eventId);
    await harness.sendRollup(rollup(account, 300_000));
    // February's rollup follows on the same partition: once it is invoiced the duplicates were seen.
    await harness.sendRollup(rollup(account, 250_500, { periodStart: FEBRUARY }));
    const invoices = await invoicesOf(account, 2);
    expect(invoices.map((invoice) => [invoice.periodStart, invoice.lookups])).toEqual([
      [FEBRUARY, 250_500],
      [JANUARY, 260_000],
    ]);
    // February: the plan period started on Jan 10, so no plan charge, only overage.
    expect(invoices[0]).toMatchObject({ totalMinor: 50, amountDueMinor: 50 });
    expect(invoices[0]?.lines.map((line) => line.amountMinor)).toEqual([0, 50]);
    expect(invoices[1]?.id).toBe(first?.id);
  });

  it('pages invoices and keeps them private to their account', async () => {
    const { account } = await standardAccount();
    await harness.sendRollup(rollup(account, 1));
    await harness.sendRollup(rollup(account, 2, { periodStart: FEBRUARY }));
    await invoicesOf(account, 2);
    const firstPage = await harness.api.listInvoices({ accountId: account, pageSize: 1 });
    expect(firstPage.invoices).toHaveLength(1);
    expect(firstPage.nextPageToken).not.toBe('');
    const secondPage = await harness.api.listInvoices({ accountId: account, pageSize: 1, pageToken: firstPage.nextPageToken });
    expect(secondPage.invoices.map((invoice) => invoice.periodStart)).toEqual([JANUARY]);
    expect(secondPage.nextPageToken).toBe('');

    const id = firstPage.invoices[0]!.id;
    expect((await harness.api.getInvoice(account, id)).invoice?.id).toBe(id);
    await expect(harness.api.getInvoice(randomUUID(), id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
