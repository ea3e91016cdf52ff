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

/** A closed hourly account total from usage.rollup.v1 (final: stats sends each once per account and hour). */
export interface ClosedHour {
  eventId: string;
  accountId: string;
  periodStart: Date;
  lookups: number;
}

/**
 * The current month's usage as stats reports it: closed hours (final, one per account and hour)
 * and running month totals (`closed = false`, only growing within a month).
 */
export interface MonthUsageRepository {
  /** false when that (account, hour) was recorded before (unique key): a re-delivery adds nothing. */
  recordClosedHour(hour: ClosedHour & { monthStart: Date }): Promise<boolean>;
  /** Keeps the largest running total seen for the month (totals arrive out of order after a re-send). */
  recordRunningTotal(total: { accountId: string; monthStart: Date; lookups: number }): Promise<void>;
  usageOf(accountId: string, monthStart: Date): Promise<{ closedHours: number; running: number }>;
}

/** The id of the not-yet-issued invoice of the current month (GetUpcomingInvoice). */
export const UPCOMING_INVOICE_ID = 'upcoming';

function requireLookups(lookups: number): void {
  if (!Number.isSafeInteger(lookups) || lookups < 0) throw new InvalidArgumentError('rollup lookups out of range');
}

export class InvoiceService {
  constructor(
    private readonly deps: {
      invoices: InvoiceRepository;
      usage: MonthUsageRepository;
      history: ChangeHistory;
      catalogue: PlanCatalogue;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** Issues the month's invoice once; a re-delivered or repeated closed rollup changes nothing. */
  async issueForClosedMonth(rollup: ClosedMonth): Promise<Invoice | null> {
    requireAccountId(rollup.accountId);
    requireLookups(rollup.lookups);
    const invoice = await this.compose(rollup.accountId, monthOf(rollup.periodStart), rollup.lookups, {
      id: newId('inv'),
      issuedAt: this.deps.clock.now(),
      sourceEventId: rollup.eventId,
    });
    if (!(await this.deps.invoices.insert(invoice))) {
      this.deps.logger.info(
        { accountId: rollup.accountId, month: invoice.periodStart, eventId: rollup.eventId },
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

  /** Records a closed hour once (unique account + hour); returns whether it was new. */
  async recordClosedHour(hour: ClosedHour): Promise<boolean> {
    requireAccountId(hour.accountId);
    requireLookups(hour.lookups);
    return this.deps.usage.recordClosedHour({ ...hour, monthStart: monthOf(hour.periodStart).start });
  }

  /** Records a running month total (`closed = false`); the largest seen stands. */
  async recordRunningMonth(total: { accountId: string; periodStart: Date; lookups: number }): Promise<void> {
    requireAccountId(total.accountId);
    requireLookups(total.lookups);
    await this.deps.usage.recordRunningTotal({
      accountId: total.accountId,
      monthStart: monthOf(total.periodStart).start,
      lookups: total.lookups,
    });
  }

  /**
   * The current month's invoice as it would be issued now: the month's lookups so far are the
   * larger of the latest running total and the sum of the closed hours (each can be ahead of the
   * other for a moment). Not stored; id 'upcoming'.
   */
  async upcomingInvoice(accountId: string): Promise<Invoice> {
    requireAccountId(accountId);
    const month = monthOf(this.deps.clock.now());
    const usage = await this.deps.usage.usageOf(accountId, month.start);
    return this.compose(accountId, month, Math.max(usage.running, usage.closedHours), {
      id: UPCOMING_INVOICE_ID,
      issuedAt: this.deps.clock.now(),
      sourceEventId: '',
    });
  }

  /** The invoice of one account and month for a number of lookups, under the plan in force at the month's end. */
  private async compose(
    accountId: string,
    month: { start: Date; end: Date },
    lookups: number,
    identity: { id: string; issuedAt: Date; sourceEventId: string },
  ): Promise<Invoice> {
    const inForce = await this.deps.history.latestBefore(accountId, 'API_ACCESS', month.end);
    const free = this.deps.catalogue.freePlan('API_ACCESS');
    const terms = inForce ? termsOfChange(inForce) : termsOfPlan(free!);
    const periodsStarted = await this.deps.history.periodsStartedIn(accountId, 'API_ACCESS', month.start, month.end);
    return buildInvoice({ ...identity, accountId, month, lookups, terms, periodsStarted });
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
