import { ResourceExhaustedError } from '@ipdata/common';
import type { RateLimiter } from '../sms/sms-code.service.js';
import type { Clock } from '../shared/clock.js';
import { MESSAGES } from '../shared/messages.js';

const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_ATTEMPTS_PER_WINDOW = 20;

/**
 * Password guessing brake: at most 20 password logins per sign-in identity per 15 minutes.
 * Counted for unknown identities too, so the limit reveals nothing about existence.
 */
export async function limitLoginAttempts(limiter: RateLimiter, clock: Clock, loginId: string): Promise<void> {
  const now = clock.now().getTime();
  const window = Math.floor(now / LOGIN_WINDOW_MS);
  if (!(await limiter.consume(`login:${loginId}:${window}`, LOGIN_ATTEMPTS_PER_WINDOW, LOGIN_WINDOW_MS + 60_000))) {
    throw new ResourceExhaustedError(MESSAGES.tooManyRequests, {
      reason: 'login_limit',
      details: { retryAfterSeconds: String(Math.ceil(((window + 1) * LOGIN_WINDOW_MS - now) / 1000)) },
    });
  }
}
