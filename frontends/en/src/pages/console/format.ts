// How the console writes numbers, money, sizes and times: always en-US and UTC, so what a page
// shows is what the API said, the same on every machine (the server's periods are UTC).

export const formatCount = (value: number): string => value.toLocaleString('en-US');

export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minor / 100);
  } catch {
    // An unknown currency code: the amount and the code as they came.
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1,234,567 → "1.2 MB" (powers of 1,024, as download tools show sizes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${formatCount(bytes)} bytes` : `${value.toFixed(value >= 100 ? 0 : 1)} ${UNITS[unit]}`;
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "Jun 3, 2025", or '—' when the API has no date. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? DATE.format(new Date(iso)) : '—';
}

/** "Jun 3, 2025, 14:05 UTC", or '—'. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${DATE_TIME.format(new Date(iso))} UTC` : '—';
}
