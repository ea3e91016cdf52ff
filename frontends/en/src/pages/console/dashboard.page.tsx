import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { webApi } from '../../api/web.api.js';
import type { UsageAnswer } from '../../api/web-api.types.js';
import { formatCount, formatDate, formatMoney } from './format.js';
import { LoadFailed } from './load-failed.js';
import { UsageChart, UsageTable } from './usage-chart.js';
import { fillSeries, type Granularity } from './usage-series.js';
import './console.css';

const GRANULARITIES: ReadonlyArray<{ value: Granularity; label: string; window: string }> = [
  { value: 'day', label: 'Per day', window: 'this month' },
  { value: 'hour', label: 'Per hour', window: 'the last 48 hours' },
];

/** The month's figures exactly as the API gives them: lookups counted, quota left, overage. */
// Drawn before the answer arrives too (dashes, a reserved chart box): the page keeps its shape
// when the numbers come, so nothing the visitor is reading moves (Lighthouse CLS).
function MonthFigures({ usage }: { usage: UsageAnswer | undefined }) {
  const quota = usage?.quota;
  const plan = usage?.plan;
  return (
    <section aria-labelledby="month-heading">
      <h2 id="month-heading">This month</h2>
      <dl className="usage-figures">
        <div>
          <dt>Plan</dt>
          <dd data-plan>{usage ? (plan?.name ?? 'Free') : '—'}</dd>
          <dd className="figure-note">
            <Link to="/pricing">See plans</Link>
          </dd>
        </div>
        <div>
          <dt>Lookups this month</dt>
          <dd data-usage="month">{quota ? formatCount(quota.used) : '—'}</dd>
          {quota && <dd className="figure-note">of {formatCount(quota.limit)} included</dd>}
        </div>
        <div>
          <dt>Quota left</dt>
          <dd data-usage="remaining">{quota ? formatCount(quota.remaining) : '—'}</dd>
          {quota && <dd className="figure-note">resets {formatDate(quota.reset_at)}</dd>}
        </div>
        <div>
          <dt>Overage</dt>
          <dd data-usage="overage">{quota ? formatCount(quota.overage) : '—'}</dd>
          {quota && <dd className="figure-note">{formatMoney(quota.overage_cost_minor, quota.currency)} so far</dd>}
        </div>
      </dl>
    </section>
  );
}

/** Usage per day (this month) or per hour (48 h), for the account or one key, with the month's quota and overage. */
export function DashboardPage() {
  const [granularity, setGranularity] = useState<Granularity>('day');
  const [keyId, setKeyId] = useState('');
  const keys = webApi.useKeysQuery();
  // `data` stays the previous answer while another key or granularity loads: no jump to empty.
  const usage = webApi.useUsageQuery({ granularity, keyId });
  const answer = usage.data;
  const rows = useMemo(() => (answer ? fillSeries(answer.series, answer.granularity, answer.answeredAt) : []), [answer]);
  const shown = GRANULARITIES.find((entry) => entry.value === (answer?.granularity ?? granularity))!;
  const keyName = keys.data?.keys.find((key) => key.id === (answer?.key_id ?? ''))?.name;
  const subject = `${keyName ? `key “${keyName}”` : 'all keys'}, ${shown.label.toLowerCase()} over ${shown.window} (UTC)`;
  return (
    <div className="console-page">
      <h1>Dashboard</h1>
      {usage.isError && !answer && <LoadFailed what="Your usage" onRetry={usage.refetch} />}
      <MonthFigures usage={answer} />
      <section aria-labelledby="usage-heading" className="usage">
        <h2 id="usage-heading">Lookups</h2>
        <div className="usage-controls">
          <div className="field-inline">
            <label htmlFor="usage-key">API key</label>
            <select id="usage-key" value={keyId} onChange={(event) => setKeyId(event.target.value)}>
              <option value="">All keys</option>
              {(keys.data?.keys ?? []).map((key) => (
                <option key={key.id} value={key.id}>
                  {key.name || 'Unnamed key'} ({key.prefix}…)
                </option>
              ))}
            </select>
          </div>
          <div className="segmented" role="group" aria-label="Period">
            {GRANULARITIES.map((entry) => (
              <button
                key={entry.value}
                type="button"
                aria-pressed={granularity === entry.value}
                onClick={() => setGranularity(entry.value)}
              >
                {entry.label}
              </button>
            ))}
          </div>
          {usage.isFetching && (
            <span className="loading" role="status">
              {answer ? 'Updating…' : 'Loading usage…'}
            </span>
          )}
        </div>
        {!answer && <div className="chart chart-loading usage-chart-placeholder" aria-hidden="true" />}
        {answer && (
          <>
            <UsageChart rows={rows} label={`Lookups and requests, ${subject}`} />
            <UsageTable rows={rows} caption={`Lookups and requests, ${subject}`} granularity={answer.granularity} />
          </>
        )}
      </section>
    </div>
  );
}
