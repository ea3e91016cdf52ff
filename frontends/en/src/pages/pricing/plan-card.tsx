import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Plan } from '../../api/web-api.types.js';
import { PRODUCT_NAMES, type Product } from '../../routes/products.js';
import { money, monthlyMinor, planName } from './plan-choice.js';

export const CURRENT_PLAN = 'Current Plan';

interface PlanCardProps {
  plan: Plan;
  current: boolean;
  busy: boolean;
  onSubscribe: (plan: Plan) => void;
  /** The plan a move down goes to, from this date (ISO, '' when unknown). */
  scheduledFrom?: string | undefined;
  /** A move down from a paid plan, asked once more in the card itself. */
  confirm?: { onConfirm: () => void; onCancel: () => void } | undefined;
}

function ConfirmMove({ name, onConfirm, onCancel }: { name: string; onConfirm: () => void; onCancel: () => void }) {
  // The question takes the Subscribe button's place: the focus moves to its answer.
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="confirm-move" role="group" aria-label={`Move to ${name}`}>
      <p>Move to {name} at the end of the current period? Your plan stays until then.</p>
      <button ref={first} type="button" className="button primary" onClick={onConfirm}>
        Move to {name}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        Keep my plan
      </button>
    </div>
  );
}

function Price({ plan }: { plan: Plan }) {
  if (!plan.self_checkout) {
    return (
      <p className="price">
        Custom <span className="per">pricing</span>
      </p>
    );
  }
  return (
    <>
      <p className="price">
        {money(monthlyMinor(plan), plan.currency)} <span className="per">per month</span>
      </p>
      <p className="billed">
        {plan.price_minor === 0
          ? 'Free forever, no credit card'
          : plan.interval === 'year'
            ? `Billed yearly: ${money(plan.price_minor, plan.currency)}`
            : 'Billed monthly'}
      </p>
    </>
  );
}

function ApiFeatures({ plan }: { plan: Plan }) {
  return (
    <>
      <li>
        <strong>{plan.lookups_per_month.toLocaleString('en-US')}</strong> lookups a month
      </li>
      <li className="overage">
        {plan.overage_price_per_1k_minor > 0 ? (
          <>
            <strong>{money(plan.overage_price_per_1k_minor, plan.currency)}</strong> per extra 1k requests
          </>
        ) : (
          'No charge per extra 1k requests: lookups stop at the limit'
        )}
      </li>
      <li>Geolocation, privacy detection and ASN APIs</li>
    </>
  );
}

function DownloadFeatures({ plan }: { plan: Plan }) {
  const names = plan.datasets.map((dataset) => PRODUCT_NAMES[dataset as Product] ?? dataset);
  return (
    <>
      <li>{names.length > 0 ? `${names.join(', ')} databases` : 'Samples of every database'}</li>
      <li>CSV, JSON and our binary format, updated every 7 days</li>
    </>
  );
}

/** One plan (UI contract: an article named after the plan, with Subscribe or 'Current Plan'). */
export function PlanCard({ plan, current, busy, onSubscribe, confirm, scheduledFrom }: PlanCardProps) {
  const name = planName(plan);
  return (
    <article className={current ? 'plan-card current-plan' : 'plan-card'} aria-label={name} data-plan={plan.id}>
      <h2>{name}</h2>
      <Price plan={plan} />
      {/* billing's description repeats an API plan's figures; it says what a data plan or a sales plan holds. */}
      {plan.description && (plan.kind === 'download' || !plan.self_checkout) && (
        <p className="plan-description">{plan.description}</p>
      )}
      <ul className="plan-features">
        {plan.kind === 'api' ? <ApiFeatures plan={plan} /> : <DownloadFeatures plan={plan} />}
        <li>{plan.support_level === 'priority' ? 'Priority support' : 'Basic support'}</li>
      </ul>
      <div className="plan-action">
        {current ? (
          <p className="current">{CURRENT_PLAN}</p>
        ) : scheduledFrom !== undefined ? (
          <p className="scheduled">
            {scheduledFrom
              ? `Starts ${new Date(scheduledFrom).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })}`
              : 'Starts at the end of the current period'}
          </p>
        ) : confirm ? (
          <ConfirmMove name={name} {...confirm} />
        ) : plan.self_checkout ? (
          <button type="button" className="button primary" disabled={busy} onClick={() => onSubscribe(plan)}>
            Subscribe
          </button>
        ) : (
          <Link className="button" to="/contact?category=Custom%20plans">
            Contact sales
          </Link>
        )}
      </div>
    </article>
  );
}
