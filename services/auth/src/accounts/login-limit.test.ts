import { ResourceExhaustedError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { LOGIN_ATTEMPTS_PER_WINDOW, limitLoginAttempts } from './login-limit.js';

/** Counts per key; the window lives in the key, as with Redis. */
function memoryLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  return {
    consume: async (key, limit) => {
      const count = counts.get(key) ?? 0;
      if (count >= limit) return false;
      counts.set(key, count + 1);
      return true;
    },
  };
}

async function retryAfter(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceExhaustedError);
  return (error as ResourceExhaustedError).retryAfterSeconds;
}

describe('login windows across calendar boundaries', () => {
  it('starts a new 15-minute login window at 1 Jan 00:00:00 UTC', async () => {
    const clock = new ManualClock(new Date('2026-12-31T23:45:00Z'));
    const limiter = memoryLimiter();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) await limitLoginAttempts(limiter, clock, 'email:a@example.com');
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect(await retryAfter(limitLoginAttempts(limiter, clock, 'email:a@example.com'))).toBe(1);
    clock.advance(1);
    await expect(limitLoginAttempts(limiter, clock, 'email:a@example.com')).resolves.toBeUndefined();
  });

  it('starts a new window at the end of 29 February', async () => {
    const clock = new ManualClock(new Date('2028-02-29T23:50:00Z'));
    const limiter = memoryLimiter();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) await limitLoginAttempts(limiter, clock, 'phone:13800138000');
    expect(await retryAfter(limitLoginAttempts(limiter, clock, 'phone:13800138000'))).toBe(10 * 60);
    clock.set(new Date('2028-03-01T00:00:00Z'));
    await expect(limitLoginAttempts(limiter, clock, 'phone:13800138000')).resolves.toBeUndefined();
  });
});
