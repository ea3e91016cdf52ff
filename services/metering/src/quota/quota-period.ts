/** The calendar periods quotas are counted in: UTC months, UTC days, and seconds for the burst. */
export interface QuotaPeriod {
  /** YYYY-MM */
  month: string;
  /** YYYY-MM-DD */
  day: string;
  /** Unix second, the burst window. */
  second: number;
  /** First instant of the next month, UTC: when the monthly counter starts again. */
  resetAt: Date;
}

const pad = (value: number) => String(value).padStart(2, '0');

export function periodOf(now: Date): QuotaPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    month: `${year}-${pad(month + 1)}`,
    day: `${year}-${pad(month + 1)}-${pad(now.getUTCDate())}`,
    second: Math.floor(now.getTime() / 1000),
    resetAt: new Date(Date.UTC(year, month + 1, 1)),
  };
}

/** Every day of `now`'s month from the 1st up to `now`'s day, oldest first (for GET /v1/usage). */
export function daysOfMonthSoFar(now: Date): string[] {
  const { month } = periodOf(now);
  const days: string[] = [];
  for (let day = 1; day <= now.getUTCDate(); day++) days.push(`${month}-${pad(day)}`);
  return days;
}

/**
 * `now`'s month so far as whole UTC days: from the 1st at 00:00 UTC (inclusive) to the midnight
 * after `now` (exclusive), the days daysOfMonthSoFar names (GET /v1/usage, the dashboard's series).
 */
export function monthToDate(now: Date): { from: Date; to: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month, now.getUTCDate() + 1)) };
}

/** Whole seconds until `until`, at least 1 (a Retry-After of 0 invites a busy loop). */
export function secondsUntil(now: Date, until: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
