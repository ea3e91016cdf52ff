import { ResourceExhaustedError, type Clock } from '@ipdata/common';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { MESSAGES } from '../shared/messages.js';
import type { Account, AccountRepository } from './account.js';
import type { PasswordHasher } from './password-hasher.js';

const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_ATTEMPTS_PER_WINDOW = 20;
/** Current-password checks per account in ChangePassword (a stolen session must not become a guessing oracle). */
export const PASSWORD_CHECKS_PER_WINDOW = 10;

async function limitPerWindow(limiter: RateLimiter, clock: Clock, key: string, limit: number, reason: string): Promise<void> {
  const now = clock.now().getTime();
  const window = Math.floor(now / LOGIN_WINDOW_MS);
  if (!(await limiter.consume(`${key}:${window}`, limit, LOGIN_WINDOW_MS + 60_000))) {
    throw new ResourceExhaustedError(MESSAGES.tooManyRequests, {
      reason,
      details: { retryAfterSeconds: String(Math.ceil(((window + 1) * LOGIN_WINDOW_MS - now) / 1000)) },
    });
  }
}

/**
 * Password guessing brake: at most 20 password logins per sign-in identity per 15 minutes.
 * Counted for unknown identities too, so the limit reveals nothing about existence.
 */
export async function limitLoginAttempts(limiter: RateLimiter, clock: Clock, loginId: string): Promise<void> {
  await limitPerWindow(limiter, clock, `login:${loginId}`, LOGIN_ATTEMPTS_PER_WINDOW, 'login_limit');
}

/** At most 10 current-password checks per account per 15 minutes (ChangePassword), right or wrong. */
export async function limitPasswordChecks(limiter: RateLimiter, clock: Clock, accountId: string): Promise<void> {
  await limitPerWindow(limiter, clock, `password-check:${accountId}`, PASSWORD_CHECKS_PER_WINDOW, 'password_check_limit');
}

/**
 * Verifies a login password; unknown account and wrong password do the same work (one scrypt).
 * After a success a hash made with weaker parameters than configured is replaced (upgrade on
 * login: the password is only known at this moment).
 */
export async function verifyLoginPassword(
  hasher: PasswordHasher,
  accounts: AccountRepository,
  account: Account | undefined,
  password: string,
): Promise<boolean> {
  if (!account) return hasher.verifyDummy(password);
  if (!(await hasher.verify(password, account.passwordHash))) return false;
  if (hasher.needsRehash(account.passwordHash)) {
    await accounts.update(account.id, { passwordHash: await hasher.hash(password) });
  }
  return true;
}
