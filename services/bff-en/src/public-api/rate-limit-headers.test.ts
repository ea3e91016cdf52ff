import { describe, expect, it } from 'vitest';
import { periodOf } from '@ipdata/metering';
import { appendRateLimitHeaders, noQuota } from './rate-limit-headers.js';

const DAY_S = 86_400;

/** The headers as a map, for a quota whose reset is the one the quota period of `now` gives (as QuotaService answers). */
function headersAt(nowIso: string, quota = { limit: 1_000, remaining: 400 }): Record<string, string> {
  const nowMs = Date.parse(nowIso);
  const flat: string[] = [];
  appendRateLimitHeaders(flat, { ...quota, resetAt: periodOf(new Date(nowMs)).resetAt }, nowMs);
  const headers: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) headers[flat[i] as string] = flat[i + 1] as string;
  return headers;
}

describe('rate limit headers at month, year and leap-day boundaries', () => {
  it('December: resets at 1 January 00:00 UTC, a 31-day window, the last second counted up', () => {
    const headers = headersAt('2030-12-31T23:59:59.999Z');
    expect(headers).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '400',
      'X-RateLimit-Reset': String(Date.UTC(2031, 0, 1) / 1000),
      'RateLimit-Policy': `"monthly";q=1000;w=${31 * DAY_S}`,
      // 1 ms before the reset: the seconds to it round up, never to 0 before it has come.
      RateLimit: '"monthly";r=400;t=1',
    });
  });

  it('January, one millisecond later: resets on 1 February, t is the whole month', () => {
    const headers = headersAt('2031-01-01T00:00:00.000Z');
    expect(headers['X-RateLimit-Reset']).toBe(String(Date.UTC(2031, 1, 1) / 1000));
    expect(headers['RateLimit-Policy']).toBe(`"monthly";q=1000;w=${31 * DAY_S}`);
    expect(headers['RateLimit']).toBe(`"monthly";r=400;t=${31 * DAY_S}`);
    expect(headersAt('2031-01-01T00:00:01.000Z')['RateLimit']).toBe(`"monthly";r=400;t=${31 * DAY_S - 1}`);
  });

  it('February of a leap year: a 29-day window, resetting on 1 March; 28 days otherwise', () => {
    const leapNight = headersAt('2028-02-29T23:59:40.000Z');
    expect(leapNight['X-RateLimit-Reset']).toBe(String(Date.UTC(2028, 2, 1) / 1000));
    expect(leapNight['RateLimit-Policy']).toBe(`"monthly";q=1000;w=${29 * DAY_S}`);
    expect(leapNight['RateLimit']).toBe('"monthly";r=400;t=20');
    expect(headersAt('2028-02-01T00:00:00.000Z')['RateLimit']).toBe(`"monthly";r=400;t=${29 * DAY_S}`);
    expect(headersAt('2027-02-15T12:00:00.000Z')['RateLimit-Policy']).toBe(`"monthly";q=1000;w=${28 * DAY_S}`);
    // March after a leap February: the window is March's own 31 days.
    expect(headersAt('2028-03-01T00:00:00.000Z')['RateLimit-Policy']).toBe(`"monthly";q=1000;w=${31 * DAY_S}`);
  });

  it('a 30-day month, and the UTC month whatever the process zone (16:00Z is already the 1st at UTC+8)', () => {
    const headers = headersAt('2030-04-30T16:00:00.000Z');
    expect(headers['X-RateLimit-Reset']).toBe(String(Date.UTC(2030, 4, 1) / 1000));
    expect(headers['RateLimit-Policy']).toBe(`"monthly";q=1000;w=${30 * DAY_S}`);
    expect(headers['RateLimit']).toBe(`"monthly";r=400;t=${8 * 3600}`);
  });

  it('a reset already passed (decided just before midnight, answered just after) says t=0, never negative', () => {
    const flat: string[] = [];
    const decided = periodOf(new Date('2030-12-31T23:59:59.900Z'));
    appendRateLimitHeaders(flat, { limit: 10, remaining: 0, resetAt: decided.resetAt }, Date.parse('2031-01-01T00:00:00.100Z'));
    expect(flat.slice(-4)).toEqual(['RateLimit-Policy', `"monthly";q=10;w=${31 * DAY_S}`, 'RateLimit', '"monthly";r=0;t=0']);
  });

  it("without a quota: zeros, and the reset of the caller's month, also across New Year and on a leap day", () => {
    expect(noQuota(Date.parse('2030-12-31T23:59:59.999Z'))).toEqual({
      limit: 0,
      remaining: 0,
      resetAt: new Date('2031-01-01T00:00:00Z'),
    });
    expect(noQuota(Date.parse('2031-01-01T00:00:00.000Z')).resetAt).toEqual(new Date('2031-02-01T00:00:00Z'));
    expect(noQuota(Date.parse('2028-02-29T23:59:40.000Z')).resetAt).toEqual(new Date('2028-03-01T00:00:00Z'));
    expect(noQuota(Date.parse('2030-12-31T16:00:00.000Z')).resetAt).toEqual(new Date('2031-01-01T00:00:00Z'));
    // The same reset as a quota decision of that instant.
    for (const iso of ['2030-12-31T23:59:59.999Z', '2031-01-01T00:00:00.000Z', '2028-02-29T12:00:00Z']) {
      expect(noQuota(Date.parse(iso)).resetAt, iso).toEqual(periodOf(new Date(iso)).resetAt);
    }
  });
});
