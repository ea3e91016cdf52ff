/**
 * UTC offset and local time of an IANA zone at lookup time, computed (never stored) and cached
 * per zone for the current second, so a batch pays for Intl once per zone.
 */
export interface ZoneTime {
  /** "+08:00" */
  offset: string;
  /** ISO 8601 local time with offset, second precision: "2026-11-22T16:45:00+08:00" */
  currentTime: string;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();
const cache = new Map<string, { second: number; value: ZoneTime }>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      formatter = null;
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function zoneTime(zone: string, nowMs: number): ZoneTime | null {
  const second = Math.floor(nowMs / 1000);
  const hit = cache.get(zone);
  if (hit !== undefined && hit.second === second) return hit.value;
  const formatter = formatterFor(zone);
  if (formatter === null) return null;
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(second * 1000)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const local = Date.UTC(
    parts['year'] ?? 0,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  );
  const offsetMinutes = Math.round((local - second * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  const date = new Date(local);
  const currentTime = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(
    date.getUTCMinutes(),
  )}:${pad(date.getUTCSeconds())}${offset}`;
  const value = { offset, currentTime };
  cache.set(zone, { second, value });
  return value;
}
