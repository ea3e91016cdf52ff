import { useState } from 'react';
import { Link } from 'react-router';
import { webApi } from '../../api/web.api.js';
import type { Invoice, Plan, Subscription } from '../../api/web-api.types.js';
import { ConfirmAction } from './confirm-action.js';
import { formatCount, formatDate, formatMoney } from './format.js';
import { LoadFailed } from './load-failed.js';
import { Pager } from './pager.js';
import './console.css';

type Kind = 'api' | 'download';
const KINDS: ReadonlyArray<{ kind: Kind; title: string }> = [
  { kind: 'api', title: 'API access' },
  { kind: 'download', title: 'Data download' },
];
const TIER_RANK: Readonly<Record<Plan['tier'], number>> = { free: 0, standard: 1, business: 2, enterprise: 3 };
const INTERVAL_RANK = (interval: Plan['interval']) => (interval === 'year' ? 1 : 0);

/** billing's order of plans (comparePlans): tier first, then monthly below yearly. */
export function comparePlans(a: Plan, b: Plan): number {
  return TIER_RANK[a.tier] - TIER_RANK[b.tier] || INTERVAL_RANK(a.interval) - INTERVAL_RANK(b.interval);
}

/** The plans `current` can be moved down to at the end of its period (none from a free plan). */
export function downgradeTargets(current: Plan, plans: readonly Plan[]): Plan[] {
  if (current.tier === 'free') return [];
  return plans.filter((plan) => plan.kind === current.kind && comparePlans(plan, current) < 0).sort((a, b) => comparePlans(b, a));
}

const intervalText = (plan: Plan) => (plan.interval === 'year' ? 'yearly' : plan.interval === 'month' ? 'monthly' : '');

function planLabel(plan: Plan): string {
  const interval = intervalText(plan);
  if (plan.price_minor === 0) return plan.tier === 'free' ? `${plan.name} (free)` : plan.name;
  return `${plan.name}, ${interval} (${formatMoney(plan.price_minor, plan.currency)} per ${plan.interval ?? 'period'})`;
}

function Downgrade({ current, subscription, plans }: { current: Plan; subscription: Subscription; plans: readonly Plan[] }) {
  const targets = downgradeTargets(current, plans);
  const [target, setTarget] = useState(targets[0]?.id ?? '');
  const [downgrade, state] = webApi.useScheduleDowngradeMutation();
  if (targets.length === 0 || subscription.scheduled_plan_id) return null;
  const chosen = targets.find((plan) => plan.id === target) ?? targets[0]!;
  const selectId = `downgrade-${current.kind}`;
  return (
    <div className="downgrade">
      <div className="field-inline">
        <label htmlFor={selectId}>Downgrade to</label>
        <select id={selectId} value={chosen.id} onChange={(event) => setTarget(event.target.value)}>
          {targets.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {planLabel(plan)}
            </option>
          ))}
        </select>
      </div>
      <ConfirmAction
        label="Downgrade"
        question={`Move to ${chosen.name}${chosen.interval ? ` (${intervalText(chosen)})` : ''} on ${formatDate(subscription.period_end)}, when the paid period ends?`}
        confirmLabel="Yes, downgrade"
        busy={state.isLoading}
        onConfirm={() => downgrade(chosen.id)}
      />
    </div>
  );
}

function PlanCard({
  kind,
  title,
  plan,
  subscription,
  plans,
}: {
  kind: Kind;
  title: string;
  plan: Plan | undefined;
  subscription: Subscription | undefined;
  plans: readonly Plan[];
}) {
  const scheduled = subscription?.scheduled_plan_id
    ? plans.find((entry) => entry.id === subscription.scheduled_plan_id)
    : undefined;
  const paid = plan !== undefined && plan.tier !== 'free';
  return (
    <article className="plan-card" aria-labelledby={`plan-${kind}`}>
      <h3 id={`plan-${kind}`}>{title}</h3>
      <p className="plan-name">
        <strong data-current-plan={kind}>{plan?.name ?? 'Free'}</strong>
        {plan && plan.price_minor > 0 && (
          <span className="figure-note">
            {' '}
            {formatMoney(plan.price_minor, plan.currency)} {intervalText(plan)}
          </span>
        )}
      </p>
      {plan && kind === 'api' && <p>{formatCount(plan.lookups_per_month)} lookups a month included.</p>}
      {paid && subscription && (
        <p>
          Current period: {formatDate(subscription.period_start)} – {formatDate(subscription.period_end)}.{' '}
          {!subscription.scheduled_plan_id && `Renews on ${formatDate(subscription.period_end)}.`}
        </p>
      )}
      {subscription?.scheduled_plan_id && (
        <p className="note" data-scheduled-plan={kind}>
          Changes to <strong>{scheduled?.name ?? subscription.scheduled_plan_id}</strong>
          {scheduled?.interval ? ` (${intervalText(scheduled)})` : ''} on {formatDate(subscription.period_end)}.
        </p>
      )}
      {!paid && <p>No renewal: the free plan has no charge.</p>}
      {plan && subscription && <Downgrade current={plan} subscription={subscription} plans={plans} />}
    </article>
  );
}

function invoiceStatus(invoice: Invoice): string {
  return invoice.amount_due_minor === 0 ? 'Paid' : 'Due';
}

function Invoices({ plans }: { plans: readonly Plan[] }) {
  // Token-paged: the tokens of the pages seen so far, so Previous goes back without a new token.
  const [tokens, setTokens] = useState<string[]>(['']);
  const [index, setIndex] = useState(0);
  const invoices = webApi.useInvoicesQuery(tokens[index] ?? '');
  const data = invoices.data;
  const planName = (id: string) => plans.find((plan) => plan.id === id)?.name ?? id;
  const goTo = (page: number) => {
    const next = page - 1;
    if (next > index && data?.next_page_token && tokens.length === next) setTokens([...tokens, data.next_page_token]);
    setIndex(next);
  };
  return (
    <section aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      {invoices.isLoading && <p className="loading">Loading your invoices…</p>}
      {data && data.invoices.length === 0 && index === 0 && <p>No invoices yet: the first is issued after your first month.</p>}
      {data && data.invoices.length > 0 && (
        <div className="table-scroll">
          <table className="invoices-table">
            <caption className="visually-hidden">Invoices</caption>
            <thead>
              <tr>
                <th scope="col">Issued</th>
                <th scope="col">Period</th>
                <th scope="col">Plan</th>
                <th scope="col" className="number">
                  Lookups
                </th>
                <th scope="col" className="number">
                  Total
                </th>
                <th scope="col" className="number">
                  Amount due
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.invoices.map((invoice) => (
                <tr key={invoice.id} data-invoice={invoice.id}>
                  <td>{formatDate(invoice.issued_at)}</td>
                  <td>
                    {formatDate(invoice.period_start)} – {formatDate(invoice.period_end)}
                  </td>
                  <td>
                    {planName(invoice.plan_id)}
                    {invoice.lines.length > 0 && (
                      <ul className="invoice-lines">
                        {invoice.lines.map((line, position) => (
                          <li key={position}>
                            {line.description}: {formatMoney(line.amount_minor, invoice.currency)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="number">
                    {formatCount(invoice.lookups)}
                    <span className="figure-note"> of {formatCount(invoice.included_lookups)}</span>
                  </td>
                  <td className="number">{formatMoney(invoice.total_minor, invoice.currency)}</td>
                  <td className="number">{formatMoney(invoice.amount_due_minor, invoice.currency)}</td>
                  <td>
                    <span className={`status status-${invoiceStatus(invoice).toLowerCase()}`}>{invoiceStatus(invoice)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={index + 1} hasNext={Boolean(data?.next_page_token)} label="Invoice pages" onPage={goTo} />
    </section>
  );
}

/** Billing: the plan per kind (period, renewal, a scheduled downgrade), upgrade via pricing, downgrade, invoices. */
export function BillingPage() {
  const current = webApi.useSubscriptionQuery();
  const plans = webApi.usePlansQuery();
  const catalogue = plans.data?.plans ?? [];
  const mine = current.data?.plans;
  return (
    <div className="console-page">
      <h1>Billing</h1>
      <section aria-labelledby="plans-heading">
        <div className="section-head">
          <h2 id="plans-heading">Your plans</h2>
          <Link className="button primary" to="/pricing">
            Change plan
          </Link>
        </div>
        {current.isLoading && <p className="loading">Loading your plans…</p>}
        {current.isError && <LoadFailed what="Your plans" onRetry={current.refetch} />}
        {mine && (
          <div className="plan-cards">
            {KINDS.map(({ kind, title }) => {
              const entry = mine.find((item) => item.kind === kind);
              return (
                <PlanCard
                  key={kind}
                  kind={kind}
                  title={title}
                  plan={entry?.plan}
                  subscription={entry?.subscription}
                  plans={catalogue}
                />
              );
            })}
          </div>
        )}
        <p className="figure-note">Upgrades apply at once after payment; downgrades at the end of the paid period.</p>
      </section>
      <Invoices plans={catalogue} />
    </div>
  );
}
