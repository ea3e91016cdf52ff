import type { UsagePoint } from '../../api/web-api.types.js';

// The dashboard's series: stats answers the periods that had traffic; a chart and its table
// need every period of the window, so the missing ones are filled with zeros. The window is the
// server's (usage.routes.ts): this month's days so far, or the 48 hours up to the current one, UTC.

export type Granularity = 'day' | 'hour';

export interface SeriesRow {
  /** Start of the period (ISO, UTC). */
  period: string;
  /** "Jun 3" or "Jun 3, 14:00" (UTC), for axis, tooltip and table. */
  label: string;
  lookups: number;
  requests: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const HOUR_LABEL = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** The period starts of the window ending at `now` (ms since the epoch). */
export function windowPeriods(granularity: Granularity, now: number): number[] {
  if (granularity === 'hour') {
    const current = Math.floor(now / HOUR_MS) * HOUR_MS;
    return Array.from({ length: 48 }, (_, index) => current - (47 - index) * HOUR_MS);
  }
  const today = new Date(now);
  const first = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
  const last = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: (last - first) / DAY_MS + 1 }, (_, index) => first + index * DAY_MS);
}

/** Every period of the window, the API's numbers where it gave some, zeros elsewhere, oldest first. */
export function fillSeries(points: readonly UsagePoint[], granularity: Granularity, now: number): SeriesRow[] {
  const byStart = new Map<number, { lookups: number; requests: number }>();
  for (const start of windowPeriods(granularity, now)) byStart.set(start, { lookups: 0, requests: 0 });
  // A point outside the window (a clock apart from the server's) is kept, not lost.
  for (const point of points) byStart.set(Date.parse(point.period), { lookups: point.lookups, requests: point.requests });
  const format = granularity === 'hour' ? HOUR_LABEL : DAY_LABEL;
  return [...byStart.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, numbers]) => ({ period: new Date(start).toISOString(), label: format.format(start), ...numbers }));
}
