const DAY_MS = 24 * 3600 * 1000;

/** `yyyy-mm-dd` of the UTC day of `now` (the daily limit's day). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The next 00:00 UTC after `now`, when the daily limit resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

/** Whole seconds until the next 00:00 UTC, at least 1 (Retry-After). */
export function secondsUntilUtcMidnight(now: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
}
