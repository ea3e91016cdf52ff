import type { Plan } from '../plans/plan.js';
import type { SubscriptionChangeRecord } from '../subscriptions/subscription.js';

export interface InvoiceLine {
  kind: 'PLAN' | 'OVERAGE';
  description: string;
  quantity: number;
  unitPriceMinor: number;
  amountMinor: number;
  planId: string;
  /** The plan charge was already paid at checkout through this order. */
  paidByOrderId: string | null;
}

export interface Invoice {
  id: string;
  accountId: string;
  /** The invoiced calendar month (UTC): [periodStart, periodEnd). */
  periodStart: Date;
  periodEnd: Date;
  currency: string;
  lines: InvoiceLine[];
  totalMinor: number;
  amountDueMinor: number;
  lookups: number;
  includedLookups: number;
  planId: string;
  issuedAt: Date;
  /** The usage rollup event it was issued from. */
  sourceEventId: string;
}

/** The plan terms an invoice needs, from the change history or the catalogue's FREE plan. */
export interface PlanTerms {
  planId: string;
  name: string;
  includedLookups: number;
  overagePricePer1kMinor: number;
  currency: string;
}

export function termsOfPlan(plan: Plan): PlanTerms {
  return {
    planId: plan.id,
    name: plan.name,
    includedLookups: plan.limits.includedLookupsPerMonth,
    overagePricePer1kMinor: plan.limits.overagePricePer1kMinor,
    currency: plan.currency,
  };
}

export function termsOfChange(change: SubscriptionChangeRecord): PlanTerms {
  return {
    planId: change.planId,
    name: change.planId,
    includedLookups: change.limits.includedLookupsPerMonth,
    overagePricePer1kMinor: change.limits.overagePricePer1kMinor,
    currency: change.currency,
  };
}

/** The calendar month (UTC) containing `at`. */
export function monthOf(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * Started thousands above the allowance: 1 extra lookup = 1 unit, 1,000 extra = 1 unit,
 * 1,001 extra = 2 units. Integer arithmetic only (BigInt), never floats.
 */
export function overageUnits(lookups: number, includedLookups: number): bigint {
  const extra = BigInt(lookups) - BigInt(includedLookups);
  return extra <= 0n ? 0n : (extra + 999n) / 1000n;
}

function safe(amount: bigint, what: string): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what} ${amount} exceeds the safe integer range`);
  return Number(amount);
}

/**
 * One invoice for one account and month: a line per plan period that started in the month
 * (plan charge; lines paid at checkout are marked) and the overage line under the plan in
 * force at the month's end.
 */
export function buildInvoice(input: {
  id: string;
  accountId: string;
  month: { start: Date; end: Date };
  lookups: number;
  terms: PlanTerms;
  periodsStarted: readonly SubscriptionChangeRecord[];
  issuedAt: Date;
  sourceEventId: string;
}): Invoice {
  const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : 'open');
  const lines: InvoiceLine[] = input.periodsStarted
    .filter((change) => change.priceMinor > 0)
    .map((change) => ({
      kind: 'PLAN',
      description: `${change.planId} ${day(change.periodStart)} – ${day(change.periodEnd)} (${change.change.toLowerCase()})`,
      quantity: 1,
      unitPriceMinor: change.priceMinor,
      amountMinor: change.priceMinor,
      planId: change.planId,
      paidByOrderId: change.orderId,
    }));
  if (lines.length === 0) {
    // No period started this month (FREE, or a yearly plan paid earlier): show the plan at 0.
    lines.push({
      kind: 'PLAN',
      description: `${input.terms.planId}: no charge this month`,
      quantity: 1,
      unitPriceMinor: 0,
      amountMinor: 0,
      planId: input.terms.planId,
      paidByOrderId: null,
    });
  }
  const units = overageUnits(input.lookups, input.terms.includedLookups);
  const overage = units * BigInt(input.terms.overagePricePer1kMinor);
  lines.push({
    kind: 'OVERAGE',
    description: `${input.lookups} lookups, ${input.terms.includedLookups} included: ${units} × 1,000 extra`,
    quantity: safe(units, 'overage units'),
    unitPriceMinor: input.terms.overagePricePer1kMinor,
    amountMinor: safe(overage, 'overage amount'),
    planId: input.terms.planId,
    paidByOrderId: null,
  });
  const total = lines.reduce((sum, line) => sum + BigInt(line.amountMinor), 0n);
  const prepaid = lines.reduce((sum, line) => sum + (line.paidByOrderId ? BigInt(line.amountMinor) : 0n), 0n);
  return {
    id: input.id,
    accountId: input.accountId,
    periodStart: input.month.start,
    periodEnd: input.month.end,
    currency: input.terms.currency,
    lines,
    totalMinor: safe(total, 'invoice total'),
    amountDueMinor: safe(total - prepaid, 'amount due'),
    lookups: input.lookups,
    includedLookups: input.terms.includedLookups,
    planId: input.terms.planId,
    issuedAt: input.issuedAt,
    sourceEventId: input.sourceEventId,
  };
}
