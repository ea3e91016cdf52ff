import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { webApi } from '../api/web.api.js';
import type { Plan } from '../api/web-api.types.js';
import { useAppSelector } from '../store/hooks.js';
import { selectLoggedIn } from '../store/session.slice.js';
import { leavePageFor } from './leave-page.js';
import { PlanCard } from './pricing/plan-card.js';
import { isDowngrade, plansShown, planName, yearlySaving, type Interval, type PlanKind } from './pricing/plan-choice.js';
import '../forms/forms.css';
import './marketing.css';

/** Spec section 4: free-plan subscribers are sent to the console. */
export const FREE_PLAN_NOTE = 'You are on the FREE plan: your API keys, usage and downloads are in the console.';
export const CHECKOUT_CANCELED = 'The checkout was canceled: nothing was charged and your plan is unchanged.';
/** Spec section 4: "Subscribing shows a success message." */
export const subscribedMessage = (name?: string) =>
  name
    ? `Subscription successful: you have subscribed to ${name}.`
    : 'Payment received: you have subscribed. Your new plan is marked below.';

export const downgradeMessage = (name: string, at?: Date) =>
  `Your plan changes to ${name} at the end of the current period${
    at ? ` (${at.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })})` : ''
  }; until then you keep what you paid for.`;

const TABS: readonly { kind: PlanKind; label: string }[] = [
  { kind: 'api', label: 'API access' },
  { kind: 'download', label: 'Data download' },
];

/** How long the page asks again for the new plan after the checkout (billing applies it on the provider's callback). */
const POLL_MS = 2_000;
const POLL_FOR_MS = 20_000;

/** The two tabs (API access / Data download) with arrow-key movement between them. */
function KindTabs({ kind, onChange }: { kind: PlanKind; onChange: (kind: PlanKind) => void }) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.findIndex((tab) => tab.kind === kind);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? TABS.length - 1 : step ? (index + step + TABS.length) % TABS.length : -1;
    if (next < 0) return;
    event.preventDefault();
    onChange(TABS[next]!.kind);
    tabs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Plan kind" className="tabs" onKeyDown={onKeyDown}>
      {TABS.map((tab, index) => (
        <button
          key={tab.kind}
          ref={(element) => {
            tabs.current[index] = element;
          }}
          id={`tab-${tab.kind}`}
          type="button"
          role="tab"
          aria-selected={kind === tab.kind}
          aria-controls="plans-panel"
          tabIndex={kind === tab.kind ? 0 : -1}
          onClick={() => onChange(tab.kind)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Pricing (spec sections 3 and 4): API access versus data download tabs, the monthly/yearly
 * toggle, each plan with its price per month and per extra 1k requests, 'Current Plan' on the
 * subscribed plan, the console message for free-plan subscribers, and the success message —
 * at once for FREE, or when billing's checkout sends the buyer back (/pricing?checkout=done&status=paid).
 */
export function PricingPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useAppSelector(selectLoggedIn);
  const [kind, setKind] = useState<PlanKind>(params.get('tab') === 'download' ? 'download' : 'api');
  const [interval, setInterval] = useState<Interval>('month');
  const [subscribed, setSubscribed] = useState('');
  const returned = params.get('checkout') === 'done' ? params.get('status') : null;
  const [polling, setPolling] = useState(returned === 'paid');
  const plans = webApi.usePlansQuery();
  const current = webApi.useSubscriptionQuery(undefined, { skip: !loggedIn, pollingInterval: polling ? POLL_MS : 0 });
  const [subscribe, subscribing] = webApi.useSubscribeMutation();
  const [scheduleDowngrade, scheduling] = webApi.useScheduleDowngradeMutation();
  const [notice, setNotice] = useState('');
  const [confirming, setConfirming] = useState<Plan | null>(null);

  useEffect(() => {
    if (!polling) return;
    const stop = window.setTimeout(() => setPolling(false), POLL_FOR_MS);
    return () => window.clearTimeout(stop);
  }, [polling]);

  const all = plans.data?.plans ?? [];
  const shown = plansShown(all, kind, interval);
  const currentPlans = current.data?.plans ?? [];
  const currentIds = new Set(currentPlans.map((entry) => entry.plan?.id).filter(Boolean));
  // A move down already asked for: the plan it goes to, and from when.
  const scheduled = new Map(
    currentPlans.flatMap((entry) =>
      entry.subscription?.scheduled_plan_id ? [[entry.subscription.scheduled_plan_id, entry.subscription.period_end]] : [],
    ),
  );
  const onFree = loggedIn && currentPlans.some((entry) => entry.kind === kind && entry.plan?.tier === 'free');
  const saving = yearlySaving(all, kind);

  const choose = async (plan: Plan) => {
    if (!loggedIn) return void navigate('/login');
    setSubscribed('');
    setNotice('');
    const from = currentPlans.find((entry) => entry.kind === plan.kind)?.plan;
    // A move down cannot be undone here: it is asked for once more before it is scheduled.
    if (isDowngrade(plan, from)) return setConfirming(plan);
    const answer = await subscribe(plan.id);
    if (!answer.data) return; // the base query showed the server's message
    if (answer.data.checkout_url) leavePageFor(answer.data.checkout_url);
    else setSubscribed(subscribedMessage(planName(plan)));
  };

  const confirmDowngrade = async (plan: Plan) => {
    setConfirming(null);
    const scheduled = await scheduleDowngrade(plan.id);
    const end = scheduled.data?.subscription?.period_end;
    if (scheduled.data) setNotice(downgradeMessage(planName(plan), end ? new Date(end) : undefined));
  };

  const success = subscribed || (returned === 'paid' ? subscribedMessage() : '');
  return (
    <div className="pricing-page">
      <header className="pricing-head">
        <h1>Pricing</h1>
        <p className="hero-lead">
          Start free, pay monthly or yearly when you need more. Every plan answers over HTTPS from the same data.
        </p>
      </header>
      <div aria-live="polite">
        {success && (
          <p role="status" className="banner-message success-message">
            {success}
          </p>
        )}
        {notice && <p className="banner-message note">{notice}</p>}
        {returned === 'canceled' && <p className="banner-message note">{CHECKOUT_CANCELED}</p>}
      </div>
      <div className="pricing-controls">
        <KindTabs kind={kind} onChange={setKind} />
        <div role="group" aria-label="Billing period" className="period">
          {(['month', 'year'] as const).map((value) => (
            <button key={value} type="button" aria-pressed={interval === value} onClick={() => setInterval(value)}>
              {value === 'month' ? 'Monthly' : 'Yearly'}
            </button>
          ))}
        </div>
        {saving > 0 && <p className="saving">Yearly billing costs up to {saving}% less.</p>}
      </div>
      <div id="plans-panel" role="tabpanel" aria-labelledby={`tab-${kind}`}>
        {onFree && (
          <p className="banner-message note console-note">
            {FREE_PLAN_NOTE} <Link to="/console">Go to the console</Link>
          </p>
        )}
        {plans.isLoading && <p className="loading">Loading plans…</p>}
        {plans.isError && <p className="error">The plans could not be loaded. Please try again later.</p>}
        <ul className="plan-grid">
          {shown.map((plan) => (
            <li key={plan.id}>
              <PlanCard
                plan={plan}
                scheduledFrom={scheduled.has(plan.id) ? (scheduled.get(plan.id) ?? '') : undefined}
                confirm={
                  confirming?.id === plan.id
                    ? { onConfirm: () => void confirmDowngrade(plan), onCancel: () => setConfirming(null) }
                    : undefined
                }
                current={currentIds.has(plan.id)}
                busy={subscribing.isLoading || scheduling.isLoading}
                onSubscribe={(chosen) => void choose(chosen)}
              />
            </li>
          ))}
        </ul>
        <p className="pricing-foot">
          Prices in US dollars. Paid plans include priority support, the FREE plan basic support. Need more, a redistribution
          licence or other terms? <Link to="/contact?category=Custom%20plans">Ask about custom plans</Link>.
        </p>
      </div>
    </div>
  );
}
