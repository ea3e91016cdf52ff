import type { Logger } from 'pino';
import { InvalidArgumentError, NotFoundError, type Clock } from '@ipdata/common';
import type { PlanCatalogue } from '../plans/plan-catalogue.js';
import { newId } from '../shared/ids.js';
import { INPUT_LIMITS, requireAccountId, requireBounded } from '../shared/input-limits.js';
import { nextPageToken, readPage } from '../shared/paging.js';
import type { ChangeHistory } from '../subscriptions/subscription.ports.js';
import { buildInvoice, monthOf, termsOfChange, termsOfPlan, type Invoice } from './invoice.js';

export interface InvoiceRepository {
  /** false when the account already has an invoice for that month (unique account + period). */
  insert(invoice: Invoice): Promise<boolean>;
  get(id: string): Promise<Invoice | null>;
  /** Newest month first. */
  listByAccount(accountId: string, offset: number, limit: number): Promise<Invoice[]>;
}

/** A closed monthly account total from usage.rollup.v1. */
export interface ClosedMonth {
  eventId: string;
  accountId: string;
  periodStart: Date;
  lookups: number;
}

export class InvoiceService {
  constructor(
    private readonly deps: {
      invoices: InvoiceRepository;
      history: ChangeHistory;
      catalogue: PlanCatalogue;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** Issues the month's invoice once; a re-delivered or repeated closed rollup changes nothing. */
  async issueForClosedMonth(rollup: ClosedMonth): Promise<Invoice | null> {
    requireAccountId(rollup.accountId);
    if (!Number.isSafeInteger(rollup.lookups) || rollup.lookups < 0)
      throw new InvalidArgumentError('rollup lookups out of range');
    const month = monthOf(rollup.periodStart);
    const inForce = await this.deps.history.latestBefore(rollup.accountId, 'API_ACCESS', month.end);
    const free = this.deps.catalogue.freePlan('API_ACCESS');
    const terms = inForce ? termsOfChange(inForce) : termsOfPlan(free!);
    const periodsStarted = await this.deps.history.periodsStartedIn(rollup.accountId, 'API_ACCESS', month.start, month.end);
    const invoice = buildInvoice({
      id: newId('inv'),
      accountId: rollup.accountId,
      month,
      lookups: rollup.lookups,
      terms,
      periodsStarted,
      issuedAt: this.deps.clock.now(),
      sourceEventId: rollup.eventId,
    });
    if (!(await this.deps.invoices.insert(invoice))) {
      this.deps.logger.info(
        { accountId: rollup.accountId, month: month.start, eventId: rollup.eventId },
        'month already invoiced',
      );
      return null;
    }
    this.deps.logger.info(
      { invoiceId: invoice.id, accountId: invoice.accountId, totalMinor: invoice.totalMinor },
      'invoice issued',
    );
    return invoice;
  }

  async getInvoice(accountId: string, invoiceId: string): Promise<Invoice> {
    requireAccountId(accountId);
    requireBounded('invoice_id', invoiceId, INPUT_LIMITS.id);
    const invoice = await this.deps.invoices.get(invoiceId);
    if (!invoice || invoice.accountId !== accountId) {
      throw new NotFoundError(`invoice not found: ${invoiceId}`, { reason: 'invoice_not_found' });
    }
    return invoice;
  }

  async listInvoices(
    accountId: string,
    pageSize: number,
    pageToken: string,
  ): Promise<{ invoices: Invoice[]; nextPageToken: string }> {
    requireAccountId(accountId);
    const page = readPage(pageSize, pageToken);
    const invoices = await this.deps.invoices.listByAccount(accountId, page.offset, page.limit + 1);
    const shown = invoices.slice(0, page.limit);
    return { invoices: shown, nextPageToken: nextPageToken(page, shown.length, invoices.length > page.limit) };
  }
}
