/** The monthly quota as the answer's headers show it (QuotaDecision fields). */
export interface QuotaHeaderValues {
  limit: number;
  remaining: number;
  resetAt: Date;
}

/**
 * `X-RateLimit-Limit/Remaining/Reset` (reset as Unix seconds, like GitHub's) and the IETF fields
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "monthly";q=<limit>;w=<window s>`
 * and `RateLimit: "monthly";r=<remaining>;t=<seconds to reset>`. Appended as a flat
 * [name, value, ...] list, the cheapest form for writeHead.
 */
export function appendRateLimitHeaders(headers: string[], quota: QuotaHeaderValues, nowMs: number): void {
  const reset = quota.resetAt.getTime();
  const resetSeconds = Math.max(0, Math.ceil((reset - nowMs) / 1000));
  const start = monthStartBefore(reset);
  const windowSeconds = Math.round((reset - start) / 1000);
  headers.push(
    'X-RateLimit-Limit',
    String(quota.limit),
    'X-RateLimit-Remaining',
    String(quota.remaining),
    'X-RateLimit-Reset',
    String(Math.floor(reset / 1000)),
    'RateLimit-Policy',
    `"monthly";q=${quota.limit};w=${windowSeconds}`,
    'RateLimit',
    `"monthly";r=${quota.remaining};t=${resetSeconds}`,
  );
}

/** The start of the calendar month (UTC) that ends at `resetMs`. */
function monthStartBefore(resetMs: number): number {
  const reset = new Date(resetMs - 1);
  return Date.UTC(reset.getUTCFullYear(), reset.getUTCMonth(), 1);
}

/** Answers without a valid key belong to no quota: the headers say so with zeros (reset: next month). */
export function noQuota(nowMs: number): QuotaHeaderValues {
  const now = new Date(nowMs);
  return { limit: 0, remaining: 0, resetAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}
