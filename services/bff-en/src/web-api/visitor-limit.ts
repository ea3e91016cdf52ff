import type { LimitedCounter } from '@ipdata/common';
import { WebApiError } from './web-envelope.js';

/** Requests one visitor address may make per window (Redis, shared by every bff-en). */
export interface VisitorBudget {
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one request of `action` from the visitor's address and refuses it past the budget:
 * 429 with Retry-After and the given text. Anonymous web routes (the lookup tool, the contact
 * form) use it; a visitor whose address is unknown shares the 'unknown' counter.
 */
export async function limitPerVisitor(
  limiter: LimitedCounter,
  action: string,
  clientIp: string,
  budget: VisitorBudget,
  message: string,
): Promise<void> {
  const key = `bff-en:${action}:${clientIp || 'unknown'}`;
  const result = await limiter.increment(key, { limit: budget.limit, windowMs: budget.windowSeconds * 1000 });
  if (!result.allowed) {
    const retryAfter = String(Math.max(1, Math.ceil((result.resetInMs ?? 1000) / 1000)));
    throw new WebApiError(429, message, { reason: 'rate_limited', headers: { 'retry-after': retryAfter } });
  }
}
